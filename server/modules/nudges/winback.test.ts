import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailJobs } from '#server/db/schema/mail.ts';
import { profiles, users } from '#server/db/schema/members.ts';
import { winbackOffers } from '#server/db/schema/nudges.ts';
import { createFakeClock } from '../../../tests/setup/fake-clock.ts';
import { activeMember } from '../../../tests/setup/members.ts';
import { signedInStaff, type TestStaff } from '../../../tests/setup/staff.ts';
import { createTestApp, type TestApp } from '../../../tests/setup/test-app.ts';

type Member = Awaited<ReturnType<typeof activeMember>>;

describe('win-back offers', () => {
  let t: TestApp;
  let admin: TestStaff;
  let siteId: number;
  // 10:00 in Amsterdam.
  const clock = createFakeClock(new Date('2026-11-30T09:00:00Z'));
  beforeAll(async () => {
    t = await createTestApp({}, { clock });
    admin = await signedInStaff(t.app, 'admin', { now: () => clock.now() });
    siteId = (await t.app.deps.sites.all())[0]!.id;
  });
  afterAll(() => t.close());

  const rule = {
    active: true,
    inactive_days: 30,
    value_percentage: 25,
    validity_days: 7,
    repeat_after_days: 60,
  };
  const put = (cookie: string, body: Record<string, unknown>) =>
    t.app.inject({ method: 'PUT', url: '/api/admin/winback.php', headers: { cookie }, payload: body });
  const offersOf = (member: Member) =>
    t.database.db.select().from(winbackOffers).where(eq(winbackOffers.userId, member.userId));
  const mailsOf = (member: Member) =>
    t.database.db.select().from(mailJobs).where(eq(mailJobs.to, member.email));
  /** The member signed up long ago and was last here `days` ago. */
  const inactiveFor = async (member: Member, days: number) => {
    const since = new Date(clock.now().getTime() - days * 86_400_000);
    await t.database.db
      .update(profiles)
      .set({ lastActiveAt: since })
      .where(eq(profiles.id, member.profileId));
    await t.database.db
      .update(users)
      .set({ signupDate: new Date(since.getTime() - 86_400_000) })
      .where(eq(users.id, member.userId));
  };

  it('lets admins read and save the rule, refuses bad values with 422 and others with 403', async () => {
    const empty = await t.app.inject({
      url: `/api/admin/winback.php?site=${siteId}`,
      headers: { cookie: admin.cookie },
    });
    expect(empty.json()).toEqual({
      rule: {
        site: siteId,
        active: false,
        inactive_days: 30,
        value_percentage: 20,
        validity_days: 7,
        repeat_after_days: 90,
      },
      results: { sent: 0, redeemed: 0 },
    });
    const bad = await put(admin.cookie, { ...rule, site: siteId, value_percentage: 0, inactive_days: -1 });
    expect(bad.statusCode).toBe(422);
    expect(bad.json()).toMatchObject({ error: 'validation_failed' });
    expect(Object.keys(bad.json().fields ?? {})).toEqual(
      expect.arrayContaining(['value_percentage', 'inactive_days']),
    );
    expect((await put(admin.cookie, { ...rule, site: 999_999 })).statusCode).toBe(404);
    for (const role of ['operator', 'moderator'] as const) {
      const staff = await signedInStaff(t.app, role, { now: () => clock.now() });
      expect((await put(staff.cookie, { ...rule, site: siteId })).statusCode).toBe(403);
      expect(
        (
          await t.app.inject({
            url: `/api/admin/winback.php?site=${siteId}`,
            headers: { cookie: staff.cookie },
          })
        ).statusCode,
      ).toBe(403);
    }
    const member = await activeMember(t.app);
    expect((await put(member.cookie, { ...rule, site: siteId })).statusCode).toBeGreaterThanOrEqual(401);
    const saved = await put(admin.cookie, { ...rule, site: siteId });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().rule).toEqual({ ...rule, site: siteId });
  });

  it('mails an inactive member one personal code, once however many runs overlap', async () => {
    const member = await activeMember(t.app);
    const recent = await activeMember(t.app);
    await t.database.db.update(users).set({ language: 'fr' }).where(eq(users.id, member.userId));
    await inactiveFor(member, 31);
    await inactiveFor(recent, 10);
    await Promise.all([t.app.deps.winback.run(), t.app.deps.winback.run(), t.app.deps.winback.run()]);
    const offers = await offersOf(member);
    expect(offers).toHaveLength(1);
    expect(await offersOf(recent)).toEqual([]);
    const mails = (await mailsOf(member)).filter((mail) => mail.kind === 'winback');
    expect(mails).toHaveLength(1);
    expect(mails[0]?.subject).toMatch(/^25\u00a0% de réduction sur vos prochains crédits sur /);
    const code = /BACK-[A-Z0-9]{8}/.exec(mails[0]?.text ?? '')?.[0];
    expect(code).toBeDefined();
    expect(mails[0]?.text).toContain(`/credits?discountcode=${code}`);

    // At checkout the code is filled in like the welcome code, and the quote applies it.
    const welcome = await t.app.inject({
      url: '/api/discountcode.php?welcome=true',
      headers: { cookie: member.cookie },
    });
    expect(welcome.json()).toMatchObject({ code, value_percentage: 25, user_id: member.userId });
    const bundles = (
      await t.app.inject({ url: '/api/bundles.php', headers: { cookie: member.cookie } })
    ).json();
    const bundle = bundles.bundles[0];
    const quote = await t.app.inject({
      url: `/api/quote.php?bundle=${bundle.id}&paymentmethod=${bundles.paymentmethods[0]}&discountcode=${code}`,
      headers: { cookie: member.cookie },
    });
    expect(quote.statusCode, quote.body).toBe(200);
    expect(quote.json().amount).toBe(Math.round(bundle.price * 0.75));
    // It is personal: another member cannot use it.
    const other = await t.app.inject({
      url: `/api/discountcode.php?code=${code}`,
      headers: { cookie: recent.cookie },
    });
    expect(other.statusCode).toBe(404);

    // Paid with the code: the results count a redemption.
    const order = await t.app.inject({
      method: 'POST',
      url: '/api/order.php',
      headers: { cookie: member.cookie },
      payload: { bundle: bundle.id, paymentmethod: bundles.paymentmethods[0], discountcode: code },
    });
    expect(order.statusCode, order.body).toBe(201);
    await t.app.inject({
      method: 'POST',
      url: '/api/test-payment.php',
      headers: { cookie: member.cookie },
      payload: { payment: order.json().checkout_url.split('/').at(-1), status: 'paid' },
    });
    const results = await t.app.inject({
      url: `/api/admin/winback.php?site=${siteId}`,
      headers: { cookie: admin.cookie },
    });
    expect(results.json().results).toEqual({ sent: 1, redeemed: 1 });
  });

  it('offers again only after repeat_after_days', async () => {
    const member = await activeMember(t.app);
    await inactiveFor(member, 40);
    await t.app.deps.winback.run();
    expect(await offersOf(member)).toHaveLength(1);
    clock.advanceDays(59);
    await t.app.deps.winback.run();
    expect(await offersOf(member)).toHaveLength(1);
    clock.advanceDays(1);
    await Promise.all([t.app.deps.winback.run(), t.app.deps.winback.run()]);
    expect((await offersOf(member)).map((offer) => offer.round)).toEqual([1, 2]);
  });

  it('sends nothing while the rule is off', async () => {
    // A new session: the days the clock moved ended the first one.
    const fresh = await signedInStaff(t.app, 'admin', { now: () => clock.now() });
    expect((await put(fresh.cookie, { ...rule, site: siteId, active: false })).statusCode).toBe(200);
    const member = await activeMember(t.app);
    await inactiveFor(member, 100);
    await t.app.deps.winback.run();
    expect(await offersOf(member)).toEqual([]);
  });
});
