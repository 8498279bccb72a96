import { once } from 'node:events';
import { readFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { z } from 'zod';
import { httpLabels } from '#server/lib/metrics.ts';
import { projectRoot } from '#server/lib/project-root.ts';
import type { MailTransport } from '#server/modules/mail/mail-transport.ts';
import { activeMember } from '../../../tests/setup/members.ts';
import { createTestApp, type TestApp } from '../../../tests/setup/test-app.ts';

const metricsToken = 'metrics-token-0123456789';

function connect(base: string, cookie: string) {
  const socket = new WebSocket(base, { headers: { cookie } });
  const ready = new Promise<void>((resolve, reject) => {
    socket.on('message', (data) => {
      if (JSON.parse(String(data)).type === 'ready') resolve();
    });
    socket.on('error', reject);
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    socket.on('close', (code, reason) => resolve({ code, reason: String(reason) })),
  );
  return { socket, ready, closed };
}

describe('/metrics', () => {
  let t: TestApp;
  let base: string;
  let failMail = true;
  const transport: MailTransport = {
    async send() {
      if (failMail) throw new Error('SMTP 451 try later');
    },
    close() {},
  };
  beforeAll(async () => {
    t = await createTestApp({ METRICS_TOKEN: metricsToken }, { mailTransport: transport });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `ws://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/api/ws`;
  });
  afterAll(() => t.close());

  const scrape = async () => {
    const response = await t.app.inject({
      url: '/metrics',
      headers: { authorization: `Bearer ${metricsToken}` },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/plain');
    return response.body;
  };

  it('is refused without the token or with a wrong one', async () => {
    expect((await t.app.inject({ url: '/metrics' })).statusCode).toBe(401);
    const wrong = await t.app.inject({ url: '/metrics', headers: { authorization: 'Bearer nope' } });
    expect(wrong.statusCode).toBe(401);
  });

  it('counts HTTP calls per route and status, sockets, live messages, the bus lag, queues and failures', async () => {
    await t.app.inject({ url: '/api/user.php' });
    await t.app.inject({ url: '/api/no-such-call.php' });
    const member = await activeMember(t.app);
    const live = connect(base, member.cookie);
    await live.ready;
    // A credits event goes through the bus to the member's socket.
    await t.app.deps.bus.publish(`member.${member.userId}`, { type: 'credits', credits: 7 });
    // The signup mail fails at the SMTP server: retried later, logged, counted.
    await t.app.deps.mail.processDue();

    const body = await scrape();
    expect(body).toMatch(
      /http_request_duration_seconds_count\{method="GET",route="\/api\/user.php",status="2xx"\} [1-9]/,
    );
    expect(body).toMatch(
      /http_request_duration_seconds_count\{method="GET",route="\/api\/\*",status="4xx"\} 1/,
    );
    expect(body).toMatch(/websocket_connections\{socket="member"\} 1/);
    expect(body).toMatch(/websocket_messages_sent_total\{socket="member",type="credits"\} 1/);
    expect(body).toMatch(/event_bus_lag_seconds_count [1-9]/);
    expect(body).toMatch(/event_bus_published_total\{type="credits"\} 1/);
    expect(body).toMatch(/job_queue_depth\{queue="mail"\} [1-9]/);
    expect(body).toMatch(/job_queue_depth\{queue="payments"\} \d+/);
    expect(body).toMatch(/job_queue_depth\{queue="jobs"\} [1-9]/);
    expect(body).toMatch(/mail_failures_total\{outcome="retry"\} [1-9]/);
    expect(body).toMatch(/job_failures_total\{queue="mail.send"\} [1-9]/);
    expect(body).toMatch(/job_runs_total\{queue="mail.send",outcome="retry"\} [1-9]/);
    expect(body).toContain('# TYPE push_failures_total counter');
    // The job runner's table by queue and state: the failed signup mail waits for its retry.
    expect(body).toMatch(/jobs\{queue="mail.send",state="queued"\} [1-9]/);
    // prom-client's process and Node metrics, the event-loop lag among them.
    for (const family of [
      'process_cpu_user_seconds_total',
      'process_resident_memory_bytes',
      'nodejs_heap_size_used_bytes',
      'nodejs_eventloop_lag_p99_seconds',
      'nodejs_gc_duration_seconds',
    ]) {
      expect(body, family).toContain(`# TYPE ${family} `);
    }
    // Every family the Grafana dashboard in deploy/ plots is one this app serves.
    const dashboard = z
      .object({
        panels: z.array(z.object({ title: z.string(), targets: z.array(z.object({ expr: z.string() })) })),
      })
      .parse(JSON.parse(await readFile(path.join(projectRoot, 'deploy', 'grafana-dashboard.json'), 'utf8')));
    const plotted = dashboard.panels.flatMap((panel) =>
      panel.targets.flatMap((target) =>
        [...target.expr.replace(/\bby \([^)]*\)/g, '').matchAll(/\b([a-z][a-z0-9_]*)\s*(?:\{|\[|\))/g)]
          .map((match) => match[1]!)
          .filter((name) => !['rate', 'sum', 'max', 'topk', 'histogram_quantile'].includes(name))
          .map((name) => name.replace(/_(bucket|count|sum)$/, '')),
      ),
    );
    expect(plotted.length).toBeGreaterThan(10);
    for (const family of new Set(plotted)) expect(body, family).toContain(`# TYPE ${family} `);
    if (t.databaseUrl) {
      // The pg pool of this instance: the test app's five connections at most, none waiting now.
      expect(body).toMatch(/db_pool_connections\{state="total"\} [1-5]/);
      expect(body).toMatch(/db_pool_connections\{state="idle"\} [0-5]/);
      expect(body).toMatch(/db_pool_waiting 0/);
    } else {
      // Checked on PGlite in CI too: the embedded database has no pool, so no pool gauges.
      expect(body).not.toContain('db_pool_connections{');
    }

    // The server counts the socket gone in its own close handler, which runs before this listener.
    const [serverSide] = [...t.app.websocketServer.clients];
    const closedOnServer = once(serverSide!, 'close');
    live.socket.close();
    await live.closed;
    await closedOnServer;
    expect(await scrape()).toMatch(/websocket_connections\{socket="member"\} 0/);
    failMail = false;
  });

  it('keeps nothing of the handshake for an open socket, and an error on it is logged and drops it', async () => {
    const [first, second] = [await activeMember(t.app), await activeMember(t.app)];
    const lives = [connect(base, first.cookie), connect(base, second.cookie)];
    await Promise.all(lives.map((live) => live.ready));
    const open = [...t.app.websocketServer.clients];
    expect(open).toHaveLength(2);
    for (const socket of open) {
      // The HTTP response of the upgrade (and through it the request, reply and member row) is gone.
      const tcp: unknown = Reflect.get(socket, '_socket');
      expect(tcp).toBeDefined();
      expect(Reflect.get(Object(tcp), '_httpMessage')).toBeNull();
      expect(socket.listenerCount('error')).toBe(1);
    }
    // One error listener shared by every socket, not a closure over each handshake.
    expect(open[0]!.listeners('error')[0]).toBe(open[1]!.listeners('error')[0]);
    open[0]!.emit('error', new Error('invalid frame'));
    expect((await Promise.race(lives.map((live) => live.closed))).code).toBe(1006);
    lives[1]!.socket.close();
    await lives[1]!.closed;
  });

  it('labels a request by its route pattern, a known method and the status class: a bounded set', async () => {
    for (let i = 0; i < 5; i++) await t.app.inject({ url: `/api/members/${1000 + i}/no-such-thing-${i}` });
    await t.app.inject({ url: `/scanner-probe-${Date.now()}.php` });
    const body = await scrape();
    const series = body.split('\n').filter((line) => line.startsWith('http_request_duration_seconds_count{'));
    expect(series.join('\n')).not.toMatch(/no-such-thing|scanner-probe|\d{4}/);
    expect(series.every((line) => /status="[1-5]xx"/.test(line))).toBe(true);
    // A method no route answers (a WebDAV scanner's) is one label value, as any status is its class.
    expect(httpLabels('PROPFIND', undefined, 405)).toEqual({
      method: 'other',
      route: 'unmatched',
      status: '4xx',
    });
    expect(httpLabels('GET', '/api/members/:id', 200).route).toBe('/api/members/:id');
  });

  it('is off (404) without METRICS_TOKEN', async () => {
    const plain = await createTestApp();
    try {
      expect((await plain.app.inject({ url: '/metrics' })).statusCode).toBe(404);
    } finally {
      await plain.close();
    }
  });
});

describe('request ids', () => {
  let t: TestApp;
  const lines: string[] = [];
  beforeAll(async () => {
    t = await createTestApp(
      { LOG_LEVEL: 'info', TRUST_PROXY: '10.9.9.9' },
      { logStream: { write: (line: string) => void lines.push(line) } },
    );
  });
  afterAll(() => t.close());

  it('names every answer, errors included, and every log line of the request', async () => {
    const ok = await t.app.inject({ url: '/api/user.php' });
    const id = ok.headers['x-request-id'];
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    const failed = await t.app.inject({ url: '/api/nothing.php' });
    expect(failed.statusCode).toBe(404);
    expect(failed.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(failed.headers['x-request-id']).not.toBe(id);
    expect(Object.keys(failed.json()).sort()).toEqual(['error', 'message']);
    const logged = lines.map(
      (line) => JSON.parse(line) as { reqId?: string; msg: string; req?: { url: string } },
    );
    // The access line (one per request, logging.ts) names its request.
    expect(logged.filter((line) => line.reqId === id).map((line) => [line.msg, line.req?.url])).toEqual([
      ['request completed', '/api/user.php'],
    ]);
    const failedId = failed.headers['x-request-id'];
    expect(logged.filter((line) => line.reqId === failedId).map((line) => line.req?.url)).toContain(
      '/api/nothing.php',
    );
  });

  it("takes a trusted proxy's X-Request-Id and ignores anybody else's", async () => {
    const proxied = await t.app.inject({
      url: '/api/user.php',
      remoteAddress: '10.9.9.9',
      headers: { 'x-request-id': 'proxy-abc-123' },
    });
    expect(proxied.headers['x-request-id']).toBe('proxy-abc-123');
    const forged = await t.app.inject({
      url: '/api/user.php',
      remoteAddress: '10.1.2.3',
      headers: { 'x-request-id': 'forged-id' },
    });
    expect(forged.headers['x-request-id']).not.toBe('forged-id');
    const injected = await t.app.inject({
      url: '/api/user.php',
      remoteAddress: '10.9.9.9',
      headers: { 'x-request-id': 'bad id\nlevel=fatal' },
    });
    expect(injected.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('graceful shutdown', () => {
  it('closes open sockets with 1001 (going away) so that clients reconnect at once', async () => {
    const t = await createTestApp();
    let closedApp = false;
    try {
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      const base = `ws://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/api/ws`;
      const member = await activeMember(t.app);
      const live = connect(base, member.cookie);
      await live.ready;
      await t.close();
      closedApp = true;
      expect(await live.closed).toEqual({ code: 1001, reason: 'going_away' });
    } finally {
      if (!closedApp) await t.close();
    }
  });
});
