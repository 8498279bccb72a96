import { IncomingMessage } from 'node:http';
import { type AddressInfo, connect, Socket } from 'node:net';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { eq } from 'drizzle-orm';
import Fastify from 'fastify';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailJobs } from '#server/db/schema/mail.ts';
import { apiCallerFor, registerPages } from '#server/web/ssr.ts';
import { activeMember, goodPassword, nextIp, signupMember, uniqueEmail } from '../../tests/setup/members.ts';
import { createTestApp, type TestApp } from '../../tests/setup/test-app.ts';
import { childLoggerFactory, isSensitiveKey, loggerOptions, redactUrl } from './logging.ts';
import { trustProxyTrueWarning } from './trust-proxy.ts';

/** A pino destination that keeps every line. */
function captureLog() {
  const lines: string[] = [];
  return {
    lines,
    stream: { write: (line: string) => void lines.push(line) },
    text: () => lines.join(''),
  };
}

describe('the log stream', () => {
  it('writes standard output without blocking the main thread, and is off when silent', () => {
    const options = loggerOptions({ LOG_LEVEL: 'info' });
    expect(options === false ? undefined : options.stream).toMatchObject({ fd: 1, sync: false });
    expect(loggerOptions({ LOG_LEVEL: 'silent' })).toBe(false);
  });
});

describe('a request’s logger', () => {
  it('writes the request id on its lines and its children’s, still redacting the lines', () => {
    const log = captureLog();
    const options = loggerOptions({ LOG_LEVEL: 'info' }, log.stream);
    if (options === false) throw new Error('logging is on at info');
    const root = pino(options, log.stream);
    const fastify = Fastify();
    const request = childLoggerFactory.call(
      fastify,
      root,
      { reqId: 'req-7' },
      {},
      new IncomingMessage(new Socket()),
    );
    request.info({ password: 'hunter2' }, 'first');
    request.child({ part: 'mail' }).warn('second');
    root.info('outside any request');
    const lines = log.lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.map((line) => [line.msg, line.reqId, line.password])).toEqual([
      ['first', 'req-7', '[Redacted]'],
      ['second', 'req-7', undefined],
      ['outside any request', undefined, undefined],
    ]);
    expect(lines[1]?.part).toBe('mail');
    void fastify.close();
  });
});

describe('redactUrl', () => {
  it.each([
    ['/api/activate.php?token=abc123', '/api/activate.php?token=[Redacted]'],
    ['/reset-password/do?token=abc&lang=de', '/reset-password/do?token=[Redacted]&lang=de'],
    ['/media/private/x.webp?e=1700000000&s=sig', '/media/private/x.webp?e=1700000000&s=[Redacted]'],
    ['https://a.example/x?foo=1&api_key=k#top', 'https://a.example/x?foo=1&api_key=[Redacted]#top'],
    ['/x?access%5Ftoken=abc', '/x?access%5Ftoken=[Redacted]'],
    [
      '/x?t=abc&code=123&sig=s&password=p',
      '/x?t=[Redacted]&code=[Redacted]&sig=[Redacted]&password=[Redacted]',
    ],
    ['/members?page=2&gender=female', '/members?page=2&gender=female'],
    ['/members', '/members'],
  ])('%s → %s', (input, expected) => {
    expect(redactUrl(input)).toBe(expected);
  });

  it('knows token-like keys', () => {
    for (const key of [
      'token',
      'Token',
      'reset_token',
      'sessionToken',
      'secret',
      'signature',
      'otp',
      'key',
    ]) {
      expect(isSensitiveKey(key)).toBe(true);
    }
    for (const key of ['page', 'gender', 'lang', 'country', 'id']) expect(isSensitiveKey(key)).toBe(false);
  });
});

describe('tokens, passwords and cookies never reach the log', () => {
  let t: TestApp;
  const log = captureLog();
  beforeAll(async () => {
    t = await createTestApp({ LOG_LEVEL: 'info' }, { logStream: log.stream });
  });
  afterAll(() => t.close());

  const tokenIn = async (to: string, kind: string, path: string) => {
    const mails = await t.database.db.select().from(mailJobs).where(eq(mailJobs.to, to));
    const text = mails.find((mail) => mail.kind === kind)?.text ?? '';
    const token = text.match(new RegExp(`${path.replace(/[.?]/g, '\\$&')}\\?token=([^\\s&]+)`))?.[1];
    if (!token) throw new Error(`No ${kind} token in ${text}`);
    return decodeURIComponent(token);
  };

  it('activation, reset and made-up tokens in URLs, passwords in bodies, session cookies', async () => {
    const { email, cookie } = await signupMember(t.app);
    const activation = await tokenIn(email, 'activation', '/api/activate.php');
    const made = 'SECRET-made-up-token-0123456789';
    const sid = cookie.split('=')[1] ?? '';

    expect(
      (await t.app.inject({ url: `/api/activate.php?token=${encodeURIComponent(activation)}` })).statusCode,
    ).toBe(302);
    await t.app.inject({ url: `/api/activate.php?token=${made}` });
    await t.app.inject({ url: `/api/reactivate.php?token=${made}` });
    await t.app.inject({ url: `/api/unsubscribe.php?token=${made}` });
    await t.app.inject({ url: `/media/private/abc.webp?e=1&s=${made}` });

    await t.app.inject({
      method: 'POST',
      url: '/api/password-reset.php',
      remoteAddress: nextIp(),
      payload: { email },
    });
    const reset = await tokenIn(email, 'passwordReset', '/reset-password/do');
    await t.app.inject({ url: `/reset-password/do?token=${encodeURIComponent(reset)}` });
    const newPassword = 'Brand-new-Secret-77';
    const changed = await t.app.inject({
      method: 'PUT',
      url: '/api/password-reset.php',
      remoteAddress: nextIp(),
      headers: { cookie },
      payload: { token: reset, password: newPassword, password_confirmation: newPassword },
    });
    expect(changed.json()).toMatchObject({ user: { email } });
    // A bounce beacon logs the page it came from, whose URL may carry a token.
    await t.app.inject({
      method: 'POST',
      url: '/api/page-hidden.php?lb=1',
      headers: { cookie, referer: `http://localhost/reset-password/do?token=${made}` },
    });
    await t.app.inject({
      method: 'POST',
      url: '/api/user.php',
      remoteAddress: nextIp(),
      payload: { email: uniqueEmail(), password: goodPassword },
    });

    const text = log.text();
    expect(text).toContain('/api/activate.php?token=[Redacted]');
    expect(text).toContain('/reset-password/do?token=[Redacted]');
    expect(text).toContain('page bounce');
    for (const secret of [activation, reset, made, newPassword, goodPassword, sid]) {
      expect(secret.length).toBeGreaterThan(8);
      expect(text).not.toContain(secret);
    }
  });
});

describe('the access log', () => {
  let t: TestApp;
  const log = captureLog();
  beforeAll(async () => {
    t = await createTestApp({ LOG_LEVEL: 'info' }, { logStream: log.stream });
    // A page whose render calls the API in-process, as the pages' loaders do.
    await registerPages(t.app, async (_webRequest, request) => {
      const api = apiCallerFor(t.app, request);
      const settings = await api<{ name: string }>('/api/settings.php');
      await api('/api/companyinfo.php');
      return new Response(`<p>${settings.data.name}</p>`, { headers: { 'content-type': 'text/html' } });
    });
    await t.app.ready();
  });
  afterAll(() => t.close());

  const completed = () =>
    log.lines
      .map((line) => JSON.parse(line) as { msg: string; req?: { url: string }; res?: { statusCode: number } })
      .filter((entry) => entry.msg === 'request completed');

  it('writes one line per request, with its address and status, and none for a page’s own API calls', async () => {
    log.lines.length = 0;
    const page = await t.app.inject({ url: '/about-us?token=SECRET-in-page-url' });
    expect(page.statusCode).toBe(200);
    await t.app.inject({ url: '/api/settings.php' });
    const lines = completed();
    expect(lines.map((line) => [line.req?.url, line.res?.statusCode])).toEqual([
      ['/about-us?token=[Redacted]', 200],
      ['/api/settings.php', 200],
    ]);
    expect(log.text()).not.toContain('incoming request');
    expect(log.text()).not.toContain('companyinfo');
  });
});

describe('TRUST_PROXY', () => {
  const signupFrom = (t: TestApp, forwardedFor: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/signup.php',
      // The proxy in front is the peer; it appends the address it saw to X-Forwarded-For.
      remoteAddress: '10.99.0.1',
      headers: { 'x-forwarded-for': forwardedFor },
      payload: {
        email: uniqueEmail('proxy'),
        name: 'Robin',
        password: goodPassword,
        date_of_birth: '1990-05-17',
      },
    });

  for (const setting of ['1', 'true']) {
    it(`with TRUST_PROXY=${setting}, a spoofed left-most X-Forwarded-For does not escape the signup limit`, async () => {
      const log = captureLog();
      const t = await createTestApp({ TRUST_PROXY: setting, LOG_LEVEL: 'warn' }, { logStream: log.stream });
      try {
        const statuses: number[] = [];
        for (let i = 1; i <= 11; i++) {
          statuses.push((await signupFrom(t, `198.51.100.${i}, 203.0.113.7`)).statusCode);
        }
        // Limit of 10 per hour for the real client (203.0.113.7), whatever it claims before that.
        expect(statuses.slice(0, 10).every((status) => status === 201)).toBe(true);
        expect(statuses[10]).toBe(429);
        // Another real client behind the same proxy still gets in.
        expect((await signupFrom(t, '198.51.100.1, 203.0.113.8')).statusCode).toBe(201);
        const warned = log.text().includes(trustProxyTrueWarning);
        expect(warned).toBe(setting === 'true');
      } finally {
        await t.close();
      }
    });
  }
});

describe('requests the client gives up on', () => {
  let t: TestApp;
  let port: number;
  let cookie: string;
  const log = captureLog();
  beforeAll(async () => {
    t = await createTestApp({ LOG_LEVEL: 'info' }, { logStream: log.stream });
    // A form post that streams its body somewhere, as a page action's upload does.
    await t.app.register(async (scope) => {
      scope.addContentTypeParser('application/octet-stream', (_request, payload, done) =>
        done(null, payload),
      );
      scope.post('/test-body-sink', async (request) => {
        await pipeline(
          request.body as NodeJS.ReadableStream,
          new Writable({ write: (_c, _e, next) => next() }),
        );
        return { ok: true };
      });
    });
    // A page that streams its answer and has more to say.
    await registerPages(t.app, async () => {
      const more = new ReadableStream<Uint8Array>({
        start: (controller) => controller.enqueue(new TextEncoder().encode(`<p>${'x'.repeat(200_000)}`)),
      });
      return new Response(more, { headers: { 'content-type': 'text/html' } });
    });
    cookie = (await activeMember(t.app)).cookie;
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as AddressInfo).port;
  });
  afterAll(() => t.close());

  type Line = { level: number; msg: string; req?: { url: string }; res?: { statusCode: number } };
  const lines = () => log.lines.map((line) => JSON.parse(line) as Line);
  const linesOf = (url: string) => lines().filter((line) => line.req?.url === url);

  /** Sends the head and part of the body over a real socket, waits a moment, and destroys it. */
  async function cutOff(head: string, partOfBody: string | Buffer, url: string): Promise<Line[]> {
    const socket = connect(port, '127.0.0.1');
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    socket.write(head);
    socket.write(partOfBody);
    await new Promise((resolve) => setTimeout(resolve, 200));
    socket.destroy();
    for (let waited = 0; waited < 5000 && linesOf(url).length === 0; waited += 50) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    // Anything more about the request (a second line, a late error) would come in this time.
    await new Promise((resolve) => setTimeout(resolve, 200));
    return linesOf(url);
  }

  const abortLine = { level: 30, msg: 'request aborted by the client', res: { statusCode: 499 } };

  it('logs an upload cut off halfway once, at info with 499', async () => {
    const boundary = 'cut-off-boundary';
    const part = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.jpg"\r\nContent-Type: image/jpeg\r\n\r\n${'x'.repeat(5000)}`;
    const found = await cutOff(
      `POST /api/photos.php HTTP/1.1\r\nHost: localhost\r\nCookie: ${cookie}\r\nContent-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: 500000\r\n\r\n`,
      part,
      '/api/photos.php',
    );
    expect(found).toEqual([expect.objectContaining(abortLine)]);
  });

  it('logs a streamed body cut off halfway at info with 499, not as a failed request with 500', async () => {
    const found = await cutOff(
      'POST /test-body-sink HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/octet-stream\r\nContent-Length: 500000\r\n\r\n',
      'x'.repeat(5000),
      '/test-body-sink',
    );
    expect(found).toEqual([expect.objectContaining(abortLine)]);
  });

  it('logs a page the client stopped reading at info with 499, not the 200 it had begun', async () => {
    const found = await cutOff(
      'GET /streamed-page HTTP/1.1\r\nHost: localhost\r\n\r\n',
      '',
      '/streamed-page',
    );
    expect(found).toEqual([expect.objectContaining(abortLine)]);
  });

  it('writes no error or warning for any of them, and a whole request is just completed', async () => {
    const answer = await fetch(`http://127.0.0.1:${port}/api/settings.php`);
    expect(answer.status).toBe(200);
    await answer.text();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(linesOf('/api/settings.php').map((line) => [line.msg, line.res?.statusCode])).toEqual([
      ['request completed', 200],
    ]);
    expect(lines().filter((line) => line.level >= 40)).toEqual([]);
  });
});
