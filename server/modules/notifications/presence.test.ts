import { inArray } from 'drizzle-orm';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { users } from '#server/db/schema/members.ts';
import { createFakeClock } from '../../../tests/setup/fake-clock.ts';
import { activeMember } from '../../../tests/setup/members.ts';
import { countStatements, installStatementCounter } from '../../../tests/setup/statement-count.ts';
import { createTestApp, type TestApp } from '../../../tests/setup/test-app.ts';
import {
  localPresenceStore,
  onlineGraceMs,
  Presence,
  type PresenceStore,
  presenceBatchPauseMs,
  presenceBatchSize,
  presenceFlushMs,
  presenceWriteEveryMs,
  redisPresenceStore,
} from './presence.ts';

let t: TestApp;
beforeAll(async () => {
  installStatementCounter();
  t = await createTestApp();
  await t.app.ready();
});
afterAll(() => t.close());
afterEach(() => {
  vi.useRealTimers();
});

async function copies(ids: number[]) {
  const rows = await t.database.db
    .select({ id: users.id, onlineUntil: users.onlineUntil })
    .from(users)
    .where(inArray(users.id, ids));
  return new Map(rows.map((row) => [row.id, row.onlineUntil]));
}

describe('presence', () => {
  it('writes the database copy at most once every few minutes per member, many members in one statement', async () => {
    const members = await Promise.all(Array.from({ length: 5 }, () => activeMember(t.app)));
    const ids = members.map((member) => member.userId);
    // Only the flush timer is faked: the database's own timers run as usual.
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const clock = createFakeClock();
    const presence = new Presence(t.database.db, clock, localPresenceStore(clock));
    presence.start();
    const flushes: number[] = [];
    const running: Promise<unknown>[] = [];
    const flush = presence.flush.bind(presence);
    vi.spyOn(presence, 'flush').mockImplementation(() => {
      const done = countStatements(flush).then(({ result, statements }) => {
        if (result > 0) flushes.push(statements.length);
        return result;
      });
      running.push(done);
      return done;
    });
    /** Moves time on and waits for the flushes it started (their queries are real I/O). */
    const advance = async (ms: number) => {
      await vi.advanceTimersByTimeAsync(ms);
      await Promise.all(running);
    };

    // Ten minutes of heartbeats every 25 s from every member.
    let written = 0;
    for (let elapsed = 0; elapsed < 10 * 60_000; elapsed += 25_000) {
      await presence.seen(ids);
      clock.advanceMinutes(25_000 / 60_000);
      await advance(25_000);
      written = flushes.length;
    }
    // 24 heartbeats a member, but the copy went to the database once every 3 minutes at most, five members a batch.
    expect(written).toBeGreaterThanOrEqual(3);
    expect(written).toBeLessThanOrEqual(Math.ceil((10 * 60_000) / presenceWriteEveryMs));
    expect(flushes.every((statements) => statements === 1)).toBe(true);
    const stored = await copies(ids);
    for (const id of ids) expect(stored.get(id)).toBeInstanceOf(Date);

    // Online per the store all along; leaving is written with the next flush.
    expect(await presence.isOnline({ id: ids[0]!, onlineUntil: null })).toBe(true);
    await presence.left(ids[0]!);
    expect(await presence.isOnline({ id: ids[0]!, onlineUntil: null })).toBe(false);
    await advance(presenceFlushMs);
    expect((await copies([ids[0]!])).get(ids[0]!)?.getTime()).toBe(clock.now().getTime());
    await presence.stop();
  });

  it('writes a large flush in small statements with pauses, so no statement holds thousands of member rows', async () => {
    const members = await Promise.all(Array.from({ length: 3 }, () => activeMember(t.app)));
    const clock = createFakeClock();
    const presence = new Presence(t.database.db, clock, localPresenceStore(clock));
    // 5,000 sockets opening at once: the real members among ids that match no row.
    const ids = [
      ...members.map((member) => member.userId),
      ...Array.from({ length: 2 * presenceBatchSize + 7 }, (_, i) => 1_000_000_000 + i),
    ];
    await presence.seen(ids);
    const timers = vi.spyOn(globalThis, 'setTimeout');
    const { result, statements } = await countStatements(() => presence.flush());
    expect(result).toBe(ids.length);
    expect(statements).toHaveLength(3);
    // A pause between two statements (background work: the sends of the moment go first).
    const pauses = timers.mock.calls.filter(([, ms]) => ms === presenceBatchPauseMs);
    timers.mockRestore();
    expect(pauses).toHaveLength(2);
    const stored = await copies(members.map((member) => member.userId));
    for (const member of members) expect(stored.get(member.userId)).toBeInstanceOf(Date);
  });

  it('lapses without heartbeats, and falls back to the database copy while the store does not answer', async () => {
    const clock = createFakeClock();
    const presence = new Presence(t.database.db, clock, localPresenceStore(clock));
    await presence.seen([1]);
    expect(await presence.isOnline({ id: 1, onlineUntil: null })).toBe(true);
    clock.advanceMinutes(onlineGraceMs / 60_000 + 0.1);
    expect(await presence.isOnline({ id: 1, onlineUntil: null })).toBe(false);

    const failing: PresenceStore = {
      set: () => Promise.reject(new Error('down')),
      clear: () => Promise.reject(new Error('down')),
      until: () => Promise.reject(new Error('down')),
    };
    const errors: unknown[] = [];
    const degraded = new Presence(t.database.db, clock, failing, (error) => errors.push(error));
    const later = new Date(clock.now().getTime() + 60_000);
    expect(await degraded.isOnline({ id: 1, onlineUntil: later })).toBe(true);
    expect(await degraded.isOnline({ id: 1, onlineUntil: clock.now() })).toBe(false);
    expect(errors).toHaveLength(2);
  });

  it('keeps the rule: no notification mail while the member is online, and it holds without a database write', async () => {
    const receiver = await activeMember(t.app);
    const before = (await copies([receiver.userId])).get(receiver.userId) ?? null;
    await t.app.deps.notifications.markOnline(receiver.userId);
    // The heartbeat only touched the store: the database copy waits for the batch.
    expect((await copies([receiver.userId])).get(receiver.userId) ?? null).toEqual(before);
    expect(await t.app.deps.notifications.presence.isOnline({ id: receiver.userId, onlineUntil: null })).toBe(
      true,
    );
  });
});

describe('presence in Redis while the connection is lost', () => {
  it('is refused at once, so a send falls back to the database copy instead of waiting out the reconnects', async () => {
    // Nothing listens on port 1: the client only ever reconnects.
    const lost = new Redis('redis://127.0.0.1:1', { retryStrategy: () => 50 });
    // expected: every reconnect fails; the test asserts on the store's refusals instead.
    lost.on('error', () => undefined);
    try {
      const store = redisPresenceStore(lost);
      await expect(store.until(7)).rejects.toThrow(/Redis connection is (connecting|reconnecting|close)/);
      await expect(store.set([7], new Date())).rejects.toThrow(/Redis connection is/);
      await expect(store.clear(7)).rejects.toThrow(/Redis connection is/);
      const errors: unknown[] = [];
      const clock = createFakeClock();
      const presence = new Presence(t.database.db, clock, store, (error) => errors.push(error));
      const now = clock.now();
      expect(await presence.isOnline({ id: 7, onlineUntil: new Date(now.getTime() + 60_000) })).toBe(true);
      expect(await presence.isOnline({ id: 7, onlineUntil: null })).toBe(false);
      expect(errors).toHaveLength(2);
    } finally {
      lost.disconnect();
    }
  });
});

if (process.env.REDIS_URL)
  describe('presence in Redis', () => {
    it('is shared by the instances, under the deployment prefix', async () => {
      const prefix = `test:presence:${process.pid}:${Date.now()}:`;
      const one = new Redis(process.env.REDIS_URL!, { keyPrefix: prefix });
      const two = new Redis(process.env.REDIS_URL!, { keyPrefix: prefix });
      const other = new Redis(process.env.REDIS_URL!, { keyPrefix: `${prefix}other:` });
      try {
        // The store refuses commands until its client is ready, as the app's start waits for it.
        await Promise.all([one, two, other].map((client) => client.ping()));
        const clock = createFakeClock();
        const first = new Presence(t.database.db, clock, redisPresenceStore(one));
        const second = new Presence(t.database.db, clock, redisPresenceStore(two));
        const elsewhere = new Presence(t.database.db, clock, redisPresenceStore(other));
        await first.seen([41, 42]);
        expect(await second.isOnline({ id: 41, onlineUntil: null })).toBe(true);
        expect(await elsewhere.isOnline({ id: 41, onlineUntil: null })).toBe(false);
        expect(await one.pttl('presence:42')).toBeGreaterThan(0);
        await second.left(42);
        expect(await first.isOnline({ id: 42, onlineUntil: null })).toBe(false);
        clock.advanceMinutes(2);
        expect(await second.isOnline({ id: 41, onlineUntil: null })).toBe(false);
      } finally {
        await one.del('presence:41', 'presence:42');
        await Promise.all([one.quit(), two.quit(), other.quit()]);
      }
    });
  });
