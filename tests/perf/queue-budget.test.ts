import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inboxPageSize } from '#contract/admin.ts';
import { sites } from '#server/db/schema/sites.ts';
import { seedWaiting } from '../setup/queue-fixture.ts';
import { freshFictionalProfile, signedInStaff, type TestStaff } from '../setup/staff.ts';
import { injectCounted, installStatementCounter } from '../setup/statement-count.ts';
import { createTestApp, type TestApp } from '../setup/test-app.ts';

/**
 * The operators' queue in a fixed number of statements however long it is (decision 011's
 * budgets): measured with 10 and with 1,000 waiting conversations. The staff session (1), the
 * waiting page (1), the claimed list (1), the main photos (1); gifts only when a last message is one.
 * Claim-next: the session, the operator's row lock, their claim count, the best free conversation
 * (locked), the claim, the audit entry, the claimed row with its photos, and the fictional
 * profile's presence (an operator holds one of its conversations).
 */
const budgets = { 'GET /api/admin/inbox.php': 4, 'POST /api/admin/next.php': 9 } as const;

let t: TestApp;
let operator: TestStaff;
beforeAll(async () => {
  installStatementCounter();
  t = await createTestApp();
  await t.app.ready();
  operator = await signedInStaff(t.app, 'operator');
});
afterAll(() => t.close());

async function measure(waiting: number): Promise<Record<keyof typeof budgets, string[]>> {
  const headers = { cookie: operator.cookie };
  const inbox = await injectCounted(t.app, { url: '/api/admin/inbox.php', headers });
  expect(inbox.response.statusCode, inbox.response.body).toBe(200);
  expect(inbox.response.json().conversations).toHaveLength(Math.min(waiting, inboxPageSize));
  const next = await injectCounted(t.app, {
    method: 'POST',
    url: '/api/admin/next.php',
    headers,
    payload: {},
  });
  expect(next.response.statusCode, next.response.body).toBe(200);
  await t.app.inject({
    method: 'DELETE',
    url: '/api/admin/claim.php',
    headers,
    payload: { conversation: next.response.json().conversation.id },
  });
  return { 'GET /api/admin/inbox.php': inbox.statements, 'POST /api/admin/next.php': next.statements };
}

describe('queue budget', () => {
  it('reads the queue in the same few statements with 10 and with 1,000 waiting', async () => {
    const [site] = await t.database.db.select({ id: sites.id }).from(sites).limit(1);
    const seed = async (count: number) =>
      seedWaiting(t.database.db, {
        count,
        siteId: site!.id,
        language: 'en',
        fictionalProfileId: (await freshFictionalProfile(t.app)).id,
        now: new Date(),
      });
    await seed(10);
    // The site directory's first load is not the queue's: warm it before counting.
    await t.app.inject({ url: '/api/admin/inbox.php', headers: { cookie: operator.cookie } });
    const small = await measure(10);
    await seed(990);
    const large = await measure(999);
    for (const call of Object.keys(budgets) as (keyof typeof budgets)[]) {
      console.info(call, small[call].length, large[call].length);
      expect(large[call].length, `${call} grows with the queue:\n${large[call].join('\n')}`).toBe(
        small[call].length,
      );
      expect(large[call].length, `${call} over budget:\n${large[call].join('\n')}`).toBeLessThanOrEqual(
        budgets[call],
      );
    }
  }, 120_000);
});
