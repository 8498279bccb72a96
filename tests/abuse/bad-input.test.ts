import { Writable } from 'node:stream';
import { sql } from 'drizzle-orm';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerErrorHandler } from '../../server/lib/error-handler.ts';
import { loggableError } from '../../server/lib/loggable-error.ts';
import { isValidHost } from '../../server/lib/request-context.ts';
import { registerPages } from '../../server/web/ssr.ts';
import { activeMember, nextIp } from '../setup/members.ts';
import { signedInStaff } from '../setup/staff.ts';
import { createTestApp, type TestApp } from '../setup/test-app.ts';
import { contractViolation } from './contract-shape.ts';

/** The bad input of the security audit, one by one, answers a clear 4xx in the contract's shape. */
describe('bad input answers 4xx, never 500', () => {
  let t: TestApp;
  let cookie: string;
  let other: number;

  beforeAll(async () => {
    t = await createTestApp();
    const member = await activeMember(t.app);
    cookie = member.cookie;
    other = (await activeMember(t.app)).profileId;
  });
  afterAll(() => t.close());

  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) =>
    t.app.inject({
      method,
      url,
      remoteAddress: nextIp(),
      headers: { cookie },
      ...(payload !== undefined ? { payload: payload as object } : {}),
    });

  it('refuses a NUL byte in any text field of the JSON API with 422 validation_failed naming the field', async () => {
    const cases: [Parameters<typeof call>[0], string, unknown, string][] = [
      ['POST', '/api/chat.php', { profile: other, text: 'hi\u0000there' }, 'text'],
      ['PUT', '/api/profile.php', { about: 'about\u0000me' }, 'about'],
      [
        'POST',
        '/api/signup.php',
        {
          email: 'nul@example.com',
          name: 'Ro\u0000bin',
          password: 'velvet-Harbor-41',
          date_of_birth: '1990-05-17',
        },
        'name',
      ],
      [
        'POST',
        '/api/complaint.php',
        { name: 'A', email: 'a@example.com', subject: 'x\u0000', message: 'long enough message here' },
        'subject',
      ],
      [
        'POST',
        '/api/order.php',
        { bundle: 1, paymentmethod: 'ideal', discountcode: 'A\u0000' },
        'discountcode',
      ],
      ['POST', '/api/payment-webhook.php', { id: 'tr_\u0000' }, 'id'],
      ['POST', '/api/test-payment.php', { payment: 'x\u0000', status: 'paid' }, 'payment'],
      ['GET', '/api/test-payment.php?payment=x%00', undefined, 'payment'],
      ['GET', '/api/search.php?countryregion=%00', undefined, 'countryregion'],
      ['GET', '/api/discountcode.php?code=A%00B', undefined, 'code'],
      ['POST', '/api/report.php', { profile: other, reason: 'spam', text: '\u0000' }, 'text'],
      ['POST', '/api/user.php', { email: 'a@example.com', password: 'pass\u0000word' }, 'password'],
      [
        'POST',
        '/api/chat.php',
        { profile: other, text: 'ok', nested: { deep: ['\u0000'] } },
        'nested.deep.0',
      ],
    ];
    for (const [method, url, payload, field] of cases) {
      const response = await call(method, url, payload);
      expect(response.statusCode, `${method} ${url}: ${response.body}`).toBe(422);
      expect(response.json()).toMatchObject({ error: 'validation_failed', fields: { [field]: 'invalid' } });
      expect(contractViolation(response)).toBeUndefined();
    }
  });

  it('refuses a lone surrogate with 422 too, where a jsonb column would have failed with 500', async () => {
    // Found by the staff fuzzer: a company's trade names are jsonb, which refuses the escape "\udfff".
    const admin = await signedInStaff(t.app, 'admin');
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/admin/companies.php',
      remoteAddress: nextIp(),
      headers: { cookie: admin.cookie },
      payload: {
        name: 'Velvet BV',
        address: 'Kade 1',
        kvk: '12345678',
        city: 'Utrecht',
        country: 'NL',
        tradenames: ['ok', '\udfff\ud800'],
      },
    });
    expect(response.statusCode, response.body).toBe(422);
    expect(response.json()).toMatchObject({
      error: 'validation_failed',
      fields: { 'tradenames.1': 'invalid' },
    });
    const chat = await call('POST', '/api/chat.php', { profile: other, text: 'hi \ud800' });
    expect(chat.json()).toMatchObject({ error: 'validation_failed', fields: { text: 'invalid' } });
  });

  it('refuses ids beyond the database integer range with 422, on every id-taking endpoint', async () => {
    const huge = 99_999_999_999;
    const cases: [Parameters<typeof call>[0], string, unknown?][] = [
      ['POST', '/api/like.php', { profile: huge }],
      ['DELETE', '/api/like.php', { profile: huge }],
      ['POST', '/api/swipe.php', { profile: huge, like: true }],
      ['GET', `/api/member.php?id=${huge}`],
      ['POST', '/api/block.php', { profile: huge }],
      ['DELETE', '/api/block.php', { profile: huge }],
      ['POST', '/api/report.php', { profile: huge, reason: 'spam' }],
      ['GET', `/api/chat.php?conversation=${huge}`],
      ['GET', `/api/chat.php?conversation=1&before=${huge}`],
      ['GET', `/api/chat.php?conversation=1&after=${huge}`],
      ['POST', '/api/chat.php', { profile: huge, text: 'hi' }],
      ['POST', '/api/chat.php', { profile: other, gift: huge }],
      ['DELETE', '/api/chat.php', { conversation: huge }],
      ['POST', '/api/conversation.php', { profile: huge }],
      ['GET', `/api/featured.php?profile=${huge}`],
      ['GET', `/api/transactions.php?id=${huge}`],
      ['GET', `/api/order.php?id=${huge}`],
      ['POST', '/api/order.php', { bundle: huge, paymentmethod: 'ideal' }],
      ['DELETE', '/api/photos.php', { photo: huge }],
      ['PUT', '/api/photos.php', { photo: huge, main: true }],
      ['PUT', '/api/directdebit.php', { mandate: huge, code: '123456' }],
      ['POST', '/api/signup.php', { profile: huge }],
    ];
    for (const [method, url, payload] of cases) {
      const response = await call(method, url, payload);
      expect(response.statusCode, `${method} ${url}: ${response.body}`).toBe(422);
      expect(response.json().error).toBe('validation_failed');
    }
    // The largest id that fits is fine input: it just finds nobody.
    const largest = await call('GET', '/api/member.php?id=2147483647');
    expect(largest.statusCode).toBe(404);
  });

  it('answers a Host that is no host[:port] with 400 bad_request, and an unknown good one with the default site', async () => {
    for (const host of ['[::1', 'evil.test:99999', 'a b', 'evil.test/path', '[zz]:80']) {
      const response = await t.app.inject({ url: '/api/settings.php', headers: { host } });
      expect(response.statusCode, host).toBe(400);
      expect(response.json()).toMatchObject({ error: 'bad_request' });
    }
    for (const host of ['unknown.example:8080', '[::1]:3000', '127.0.0.1']) {
      const response = await t.app.inject({ url: '/api/settings.php', headers: { host } });
      expect(response.statusCode, host).toBe(200);
    }
    expect(isValidHost(undefined)).toBe(true);
  });

  it('answers a plain GET on the WebSocket route with the contract body, not a bare 404', async () => {
    const response = await t.app.inject({ url: '/api/ws', headers: { cookie } });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ error: 'not_found' });
  });
});

/** The catch-all page route as registerWeb mounts it, with a stand-in renderer whose action reads the form. */
describe('page actions only read forms', () => {
  let t: TestApp;
  let app: FastifyInstance;
  beforeAll(async () => {
    t = await createTestApp();
    app = t.app;
    await registerPages(app, async (request) => {
      if (request.method === 'GET')
        return new Response('<p>page</p>', { headers: { 'content-type': 'text/html' } });
      const form = await request.formData();
      return Response.json({ got: String(form.get('name') ?? '') });
    });
  });
  afterAll(() => t.close());

  it('answers JSON posted to a page with 415, a broken multipart form with 400, a real form with the page', async () => {
    const json = await app.inject({
      method: 'POST',
      url: '/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"email":"a@example.com"}',
    });
    expect(json.statusCode).toBe(415);
    expect(json.json()).toMatchObject({ error: 'unsupported_media_type' });

    const noType = await app.inject({ method: 'POST', url: '/login', payload: 'name=x' });
    expect(noType.statusCode).toBe(415);

    const broken = await app.inject({
      method: 'POST',
      url: '/login',
      headers: { 'content-type': 'multipart/form-data' },
      payload: '--x\r\nContent-Disposition: form-data; name="name"\r\n\r\nRobin',
    });
    expect(broken.statusCode).toBe(400);
    expect(contractViolation(broken)).toBeUndefined();

    const form = await app.inject({
      method: 'POST',
      url: '/login',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'name=Robin',
    });
    expect(form.statusCode).toBe(200);
    expect(form.json()).toEqual({ got: 'Robin' });
  });

  it('answers a page request with a bad Host with 400, not the 500 page', async () => {
    const response = await app.inject({ url: '/members/5', headers: { host: '[::1' } });
    expect(response.statusCode).toBe(400);
    expect(contractViolation(response)).toBeUndefined();
  });
});

/** A failed query is logged by its SQLSTATE, route and request id, never with the values. */
describe('failed-query logs carry no user input', () => {
  it('logs the SQLSTATE, route and request id of a failed query, not its text, parameters or values', async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const t = await createTestApp();
    const logger: FastifyBaseLogger = pino({ level: 'info' }, sink);
    const app = Fastify({ loggerInstance: logger });
    app.decorate('deps', t.app.deps);
    registerErrorHandler(app);
    const secret = 'robin.private@example.com-99999999999';
    app.get('/api/crash.php', async () => {
      await t.app.deps.db.execute(sql`select ${secret}::int as n`);
      return { ok: true };
    });
    try {
      const response = await app.inject({ url: '/api/crash.php' });
      expect(response.statusCode).toBe(500);
      expect(response.json()).toMatchObject({ error: 'internal_error' });
      expect(response.body).not.toContain(secret);

      const failed = lines.map((line) => JSON.parse(line)).find((entry) => entry.msg === 'request failed');
      expect(failed).toMatchObject({ route: '/api/crash.php', method: 'GET', err: { sqlState: '22P02' } });
      expect(failed.reqId).toBeTruthy();
      expect(lines.join('\n')).not.toContain('robin.private');
      expect(lines.join('\n')).not.toContain('select');
    } finally {
      await app.close();
      await t.close();
    }
  });

  it('keeps the message of an error that is not a query', () => {
    const described = loggableError(new TypeError('x is not a function'));
    expect(described).toMatchObject({ type: 'TypeError', message: 'x is not a function' });
    expect(String(described.stack)).toMatch(/^\s+at /);
  });
});
