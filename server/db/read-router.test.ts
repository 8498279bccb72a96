import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle, openPglite } from './client.ts';
import { lsnValue, ReadRouter } from './read-router.ts';

// The rules against a real streaming standby are in tests/replica (npm run test:replica); these
// are the ones that need none.
let dir: string;
let primary: DatabaseHandle;
let notAStandby: DatabaseHandle;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'read-router-'));
  primary = await openPglite(path.join(dir, 'primary'));
  notAStandby = await openPglite(path.join(dir, 'other'));
});

afterAll(async () => {
  await primary.close();
  await notAStandby.close();
  await rm(dir, { recursive: true, force: true });
});

describe('read router', () => {
  it('orders WAL positions by both halves', () => {
    expect(lsnValue('0/16B3748')).toBe(0x16b3748n);
    expect(lsnValue('1/0') > lsnValue('0/FFFFFFFF')).toBe(true);
    expect(() => lsnValue('nonsense')).toThrow('not an LSN');
  });

  it('reads from the primary and marks no one without replicas', async () => {
    const router = new ReadRouter(primary.db, [], { maxLagMs: 1000, stickyMs: 5000 });
    await router.memberWrote(1);
    expect(router.for(1)).toBe(primary.db);
    expect(router.for(null)).toBe(primary.db);
    expect(await router.check()).toEqual([]);
  });

  it('uses no replica before its first check, nor a server that is not a standby', async () => {
    const router = new ReadRouter(
      primary.db,
      [{ name: 'other', db: notAStandby.db, close: async () => {} }],
      { maxLagMs: 1000, stickyMs: 5000 },
    );
    expect(router.statuses()[0]?.state).toBe('unchecked');
    expect(router.for(null)).toBe(primary.db);
    const [status] = await router.check();
    expect(status).toMatchObject({ state: 'down', reason: expect.stringContaining('not a standby') });
    expect(router.for(null)).toBe(primary.db);
  });
});
