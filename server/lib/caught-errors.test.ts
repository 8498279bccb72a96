import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { activeMember } from '../../tests/setup/members.ts';
import { createTestApp, type TestApp } from '../../tests/setup/test-app.ts';

/** Failures the app goes on from reach the log and caught_errors_total{where} (server/lib/best-effort.ts). */
describe('failures the app goes on from', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const counted = async (where: string) =>
    (await t.app.deps.metrics.caughtErrors.get()).values.find((value) => value.labels.where === where)
      ?.value ?? 0;

  it('a reactivation link that fails for another reason than being invalid is counted', async () => {
    const invalid = await t.app.inject({ url: '/api/reactivate.php?token=not-a-token' });
    expect(invalid.headers.location).toBe('/activate/error?reason=reactivation');
    // An invalid link is the page's answer, not a failure.
    expect(await counted('accounts.reactivate')).toBe(0);

    const failing = vi
      .spyOn(t.app.deps.accounts, 'reactivateByToken')
      .mockRejectedValueOnce(new Error('the database is away'));
    try {
      const answer = await t.app.inject({ url: '/api/reactivate.php?token=any' });
      expect(answer.statusCode).toBe(302);
      expect(answer.headers.location).toBe('/activate/error?reason=reactivation');
      expect(await counted('accounts.reactivate')).toBe(1);
    } finally {
      failing.mockRestore();
    }
  });

  it("a like's notification that fails is counted, and the like stands", async () => {
    const liked = await activeMember(t.app, { name: 'Anna' });
    const liker = await activeMember(t.app, { name: 'Bert' });
    const failing = vi
      .spyOn(t.app.deps.notifications, 'onLike')
      .mockRejectedValueOnce(new Error('the mail queue is away'));
    try {
      const answer = await t.app.inject({
        method: 'POST',
        url: '/api/like.php',
        headers: { cookie: liker.cookie },
        payload: { profile: liked.profileId },
      });
      expect(answer.json()).toEqual({ match: false });
      expect(await counted('notifications.like')).toBe(1);
    } finally {
      failing.mockRestore();
    }
  });
});
