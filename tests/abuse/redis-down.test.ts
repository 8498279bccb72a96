import net from 'node:net';
import { Writable } from 'node:stream';
import { and, eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { profiles } from '../../server/db/schema/members.ts';
import { failoverRateLimitStore } from '../../server/lib/rate-limit-store.ts';
import { activeMember, grantCredits, nextIp } from '../setup/members.ts';
import { createTestApp, type TestApp } from '../setup/test-app.ts';
import { contractViolation } from './contract-shape.ts';

/** A TCP relay in front of Redis that can be cut: afterwards the port refuses, as a Redis that went down. */
async function cuttableRedis(target: URL) {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port || 6379), target.hostname);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => undefined);
      socket.on('close', () => {
        client.destroy();
        upstream.destroy();
        sockets.delete(socket);
      });
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address() as net.AddressInfo;
  return {
    url: `redis://127.0.0.1:${address.port}`,
    cut: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      }),
  };
}

const collectingLogger = () => {
  const lines: { level: number; msg: string }[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      lines.push(JSON.parse(String(chunk)));
      done();
    },
  });
  const logger: FastifyBaseLogger = pino({ level: 'warn' }, sink);
  return { lines, logger };
};

describe('rate limits while Redis does not answer', () => {
  it('count in the instance and warn once, instead of failing the request', async () => {
    // Nothing listens on port 1: every command is refused.
    const refusing = new Redis('redis://127.0.0.1:1', {
      lazyConnect: true,
      maxRetriesPerRequest: 0,
      retryStrategy: () => 20,
    });
    const { lines, logger } = collectingLogger();
    try {
      const Store = failoverRateLimitStore(refusing, logger, 'rate-limit:');
      const store = new Store({}).child({ routeInfo: { method: 'POST', url: '/api/chat.php' } } as never);
      const incr = () =>
        new Promise<{ current: number; ttl: number }>((resolve, reject) =>
          store.incr(
            'member:1',
            (error, result) => (error || !result ? reject(error) : resolve(result)),
            60_000,
            2,
          ),
        );
      const counted = [await incr(), await incr(), await incr()];
      expect(counted.map((result) => result.current)).toEqual([1, 2, 3]);
      expect(counted[0]?.ttl).toBeGreaterThan(59_000);
      const warnings = lines.filter((line) => line.level === 40);
      expect(warnings).toHaveLength(1);
      expect(warnings[0]?.msg).toMatch(/Redis does not answer/);
    } finally {
      refusing.disconnect();
    }
  });
});

/** The security audit found that while Redis was down, 19 of 19 message sends answered 500. */
describe('the app while Redis goes down', () => {
  let t: TestApp;
  let relay: Awaited<ReturnType<typeof cuttableRedis>>;

  beforeAll(async () => {
    relay = await cuttableRedis(new URL(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379'));
    t = await createTestApp({ REDIS_URL: relay.url });
  });
  afterAll(async () => {
    await relay.cut();
    await t.close();
  });

  it('keeps answering rate-limited routes (no 5xx) and keeps enforcing their limits in the instance', async () => {
    const member = await activeMember(t.app);
    await grantCredits(t.app, member.userId, 500, true);
    const fictional = await t.app.deps.db
      .select({ id: profiles.id })
      .from(profiles)
      .where(and(eq(profiles.fictional, true), eq(profiles.status, 'active')))
      .limit(3);
    const [first, second, third] = fictional.map((row) => row.id);
    if (first === undefined || second === undefined || third === undefined)
      throw new Error('no demo profiles');

    const before = await t.app.inject({
      method: 'POST',
      url: '/api/chat.php',
      headers: { cookie: member.cookie },
      payload: { profile: first, text: 'Hello while Redis is up' },
    });
    expect(before.statusCode).toBe(201);

    await relay.cut();

    const sends = [];
    for (let index = 0; index < 5; index++) {
      sends.push(
        await t.app.inject({
          method: 'POST',
          url: '/api/chat.php',
          headers: { cookie: member.cookie },
          payload: { profile: first, text: `Message ${index} while Redis is down` },
        }),
      );
    }
    expect(sends.map((response) => response.statusCode)).toEqual([201, 201, 201, 201, 201]);

    const like = await t.app.inject({
      method: 'POST',
      url: '/api/like.php',
      headers: { cookie: member.cookie },
      payload: { profile: second },
    });
    expect(like.statusCode).toBe(200);

    // The complaint form allows 5 an hour per address: the 6th is refused even without Redis.
    const ip = nextIp();
    const complaints = [];
    for (let index = 0; index < 6; index++) {
      complaints.push(
        await t.app.inject({
          method: 'POST',
          url: '/api/complaint.php',
          remoteAddress: ip,
          payload: {
            name: 'Robin',
            email: 'robin@example.com',
            subject: 'Hello',
            message: 'A message long enough.',
          },
        }),
      );
    }
    for (const response of complaints) expect(contractViolation(response)).toBeUndefined();
    expect(complaints.at(-1)?.statusCode).toBe(429);
    expect(complaints.slice(0, 5).every((response) => response.statusCode < 300)).toBe(true);
  });
});
