import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobs } from '#server/db/schema/jobs.ts';
import { createFakeClock } from '../tests/setup/fake-clock.ts';
import { createTestApp, type TestApp } from '../tests/setup/test-app.ts';

describe('the periodic work', () => {
  let t: TestApp;
  const clock = createFakeClock(new Date('2026-12-01T10:00:30Z'));
  beforeAll(async () => {
    t = await createTestApp({}, { clock });
  });
  afterAll(() => t.close());

  it('runs each sweep once per period on the job runner, and again in the next period', async () => {
    await t.app.deps.jobs.runDue();
    await t.app.deps.jobs.runDue();
    const names = [
      'payments.recheck',
      'accounts.erase-expired',
      'login-throttles.prune',
      'webauthn-challenges.prune',
      'jobs.prune',
    ];
    const rows = (await t.database.db.select().from(jobs)).filter((row) => names.includes(row.queue));
    expect(rows.map((row) => [row.queue, row.status]).sort()).toEqual(
      names.map((name) => [name, 'done']).sort(),
    );
    clock.advanceMinutes(1);
    await t.app.deps.jobs.runDue();
    const after = (await t.database.db.select().from(jobs)).filter((row) => row.queue === 'payments.recheck');
    expect(after.map((row) => row.key).sort()).toEqual([
      `period:${Math.floor(Date.parse('2026-12-01T10:00:30Z') / 60_000)}`,
      `period:${Math.floor(Date.parse('2026-12-01T10:01:30Z') / 60_000)}`,
    ]);
  });
});
