import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from '../../tests/setup/test-app.ts';
import { redisPrefixOf } from './redis-prefix.ts';

describe('redisPrefixOf', () => {
  const base = { REDIS_PREFIX: undefined, DATABASE_URL: undefined, DATA_DIR: '/srv/a/data' };

  it('takes REDIS_PREFIX when set', () => {
    expect(redisPrefixOf({ ...base, REDIS_PREFIX: 'site-a:' })).toBe('site-a:');
  });

  it('derives a different prefix per database, and the same one for the same database', () => {
    const a = redisPrefixOf({ ...base, DATABASE_URL: 'postgres://u@db:5432/dating_a' });
    const b = redisPrefixOf({ ...base, DATABASE_URL: 'postgres://u@db:5432/dating_b' });
    const otherHost = redisPrefixOf({ ...base, DATABASE_URL: 'postgres://u@db2:5432/dating_a' });
    expect(a).toMatch(/^dating:dating_a:[0-9a-f]{8}:$/);
    expect(new Set([a, b, otherHost]).size).toBe(3);
    expect(redisPrefixOf({ ...base, DATABASE_URL: 'postgres://other-user@db:5432/dating_a' })).toBe(a);
    const embedded = redisPrefixOf(base);
    expect(embedded).not.toBe(redisPrefixOf({ ...base, DATA_DIR: '/srv/b/data' }));
    expect(embedded).toBe(redisPrefixOf(base));
  });
});

type Heard = { type: string; from?: string };

/**
 * Publishes `event` on the listener's own bus until the listener has heard it: the first one that
 * comes back proves the subscription has reached Redis, and that everything Redis sent the listener
 * before it has come (a connection gets its messages in order).
 */
const hearsItself = (listener: TestApp, heard: Heard[], event: Heard) =>
  vi.waitFor(
    async () => {
      await listener.app.deps.bus.publish('member:1', event);
      expect(heard).toContainEqual(event);
    },
    { timeout: 3000, interval: 20 },
  );

/** What a listener heard from anyone but itself. */
const fromOthers = (heard: Heard[], me: string) => heard.filter((event) => event.from !== me);

describe('two deployments on one Redis', () => {
  const apps: TestApp[] = [];
  afterAll(async () => {
    for (const app of apps) await app.close();
  });

  it('hear only the events of their own prefix', async () => {
    const mine = `t${randomBytes(4).toString('hex')}:`;
    const theirs = `t${randomBytes(4).toString('hex')}:`;
    const [sender, samePrefix, otherPrefix] = await Promise.all([
      createTestApp({ REDIS_PREFIX: mine }),
      createTestApp({ REDIS_PREFIX: mine }),
      createTestApp({ REDIS_PREFIX: theirs }),
    ]);
    apps.push(sender!, samePrefix!, otherPrefix!);
    const heardSame: Heard[] = [];
    const heardOther: Heard[] = [];
    samePrefix!.app.deps.bus.subscribe('member:1', (payload) => heardSame.push(payload as Heard));
    otherPrefix!.app.deps.bus.subscribe('member:1', (payload) => heardOther.push(payload as Heard));
    // Subscriptions reach Redis asynchronously.
    await hearsItself(samePrefix!, heardSame, { type: 'probe', from: 'same' });
    await hearsItself(otherPrefix!, heardOther, { type: 'probe', from: 'other' });
    await sender!.app.deps.bus.publish('member:1', { type: 'ping' });
    // Published after the ping: whatever the ping brought a listener has come before its marker.
    await hearsItself(samePrefix!, heardSame, { type: 'marker', from: 'same' });
    await hearsItself(otherPrefix!, heardOther, { type: 'marker', from: 'other' });
    expect(fromOthers(heardOther, 'other')).toEqual([]);
    // With Redis the other instance of the same deployment hears it; without, each bus is in-process.
    expect(fromOthers(heardSame, 'same')).toEqual(process.env.REDIS_URL ? [{ type: 'ping' }] : []);
  });
});
