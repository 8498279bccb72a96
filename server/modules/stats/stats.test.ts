import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundles } from '#server/db/schema/catalog.ts';
import { conversations, messages } from '#server/db/schema/chats.ts';
import { profiles, type TrafficSource, users } from '#server/db/schema/members.ts';
import { orders } from '#server/db/schema/payments.ts';
import { companies, sites } from '#server/db/schema/sites.ts';
import { memberActiveDays, statsSiteDays, visits } from '#server/db/schema/tracking.ts';
import { csvField, toCsv } from '#server/lib/csv.ts';
import { activeMember } from '../../../tests/setup/members.ts';
import { signedInStaff, type TestStaff } from '../../../tests/setup/staff.ts';
import { createTestApp, type TestApp } from '../../../tests/setup/test-app.ts';
import * as repo from './stats.repository.ts';
import { StatsService } from './stats.service.ts';

const at = (iso: string) => new Date(`${iso}Z`);

type SourceRow = {
  network: string | null;
  value: string | null;
  visits: number;
  signups: number;
  buyers: number;
  revenue: Record<string, number>;
};
/** The funnel's first figures of a traffic-source row (the later ones: server/modules/stats/numbers.test.ts). */
const funnel = (rows: SourceRow[]) =>
  rows.map(({ network, value, visits, signups, buyers, revenue }) => ({
    network,
    value,
    visits,
    signups,
    buyers,
    revenue,
  }));

/**
 * A small site with known numbers over 1–3 March 2026 (UTC): three real members who signed up in
 * the range, one before it, a fictional profile, orders in two currencies (and a refunded and a
 * pending one that do not count), conversations with known reply times, active days and visits.
 */
async function seedFixture(t: TestApp) {
  const db = t.app.deps.db;
  const [company] = await db.select({ id: companies.id }).from(companies).limit(1);
  const [site] = await db
    .insert(sites)
    .values({
      domain: `stats-${process.pid}-${Date.now()}.localhost`,
      name: 'Stats site',
      indexTitle: 'Stats',
      description: '',
      countries: ['NL'],
      supportEmail: 'support@example.com',
      companyId: company!.id,
    })
    .returning({ id: sites.id });
  const [other] = await db
    .insert(sites)
    .values({
      domain: `stats-other-${process.pid}-${Date.now()}.localhost`,
      name: 'Other site',
      indexTitle: 'Other',
      description: '',
      countries: ['NL'],
      supportEmail: 'support@example.com',
      companyId: company!.id,
    })
    .returning({ id: sites.id });
  const siteId = site!.id;
  const member = async (
    name: string,
    values: {
      signup: string;
      activated?: string;
      firstPurchase?: string;
      tracking?: TrafficSource;
      fictional?: boolean;
      siteId?: number;
    },
  ) => {
    const [user] = await db
      .insert(users)
      .values({
        siteId: values.siteId ?? siteId,
        email: values.fictional ? null : `${name}.${siteId}@example.com`,
        status: 'active',
        signupDate: at(values.signup),
        activatedAt: values.activated ? at(values.activated) : null,
        firstPurchaseAt: values.firstPurchase ? at(values.firstPurchase) : null,
        trafficsource: values.tracking ?? null,
      })
      .returning({ id: users.id });
    const [profile] = await db
      .insert(profiles)
      .values({
        userId: user!.id,
        name,
        birthdate: '1990-01-01',
        country: 'NL',
        fictional: values.fictional ?? false,
      })
      .returning({ id: profiles.id });
    return { userId: user!.id, profileId: profile!.id };
  };
  const a = await member('Anna', {
    signup: '2026-03-01T10:00:00',
    activated: '2026-03-01T11:00:00',
    firstPurchase: '2026-03-02T09:00:00',
    tracking: { network: 'adnet', sub1: '=cmd|calc', click_id: 'c-a', lander: 'gallery' },
  });
  const b = await member('Bart', {
    signup: '2026-03-01T12:00:00',
    activated: '2026-03-02T08:00:00',
    tracking: { network: 'adnet', sub1: 'x', click_id: 'c-b', lander: 'video' },
  });
  const c = await member('Cees', { signup: '2026-03-02T13:00:00', firstPurchase: '2026-03-02T14:00:00' });
  const e = await member('Eva', { signup: '2026-02-27T09:00:00', activated: '2026-03-01T07:00:00' });
  const f = await member('Fleur', { signup: '2026-03-01T09:00:00', fictional: true });
  const elsewhere = await member('Olaf', { signup: '2026-03-01T09:00:00', siteId: other!.id });

  const [bundle] = await db.select({ id: bundles.id }).from(bundles).limit(1);
  const order = (
    userId: number,
    amountCents: number,
    currency: string,
    status: 'completed' | 'refunded' | 'pending',
    settled: string | null,
  ) => ({
    userId,
    siteId,
    bundleId: bundle!.id,
    credits: 10,
    amountCents,
    listPriceCents: amountCents,
    currency,
    country: 'NL',
    paymentMethod: 'ideal',
    provider: 'test',
    status,
    createdAt: at('2026-03-01T00:00:00'),
    settledAt: settled ? at(settled) : null,
  });
  await db
    .insert(orders)
    .values([
      order(a.userId, 1000, 'EUR', 'completed', '2026-03-02T09:00:00'),
      order(c.userId, 2500, 'USD', 'completed', '2026-03-02T14:00:00'),
      order(a.userId, 500, 'EUR', 'completed', '2026-03-03T10:00:00'),
      order(b.userId, 700, 'EUR', 'refunded', '2026-03-02T10:00:00'),
      order(b.userId, 300, 'EUR', 'pending', null),
    ]);

  const chat = async (one: number, two: number, lines: [number, string][]) => {
    const [conversation] = await db
      .insert(conversations)
      .values({
        lowProfileId: Math.min(one, two),
        highProfileId: Math.max(one, two),
        startedByProfileId: one,
        createdAt: at(lines[0]![1]),
      })
      .returning({ id: conversations.id });
    for (const [sender, when] of lines) {
      await db.insert(messages).values({
        conversationId: conversation!.id,
        senderProfileId: sender,
        kind: 'text',
        text: 'hi',
        createdAt: at(when),
      });
    }
  };
  // Anna waits 300 s (from her first unanswered message), then 120 s; the profile's extra message waits for nobody.
  await chat(a.profileId, f.profileId, [
    [a.profileId, '2026-03-01T10:00:00'],
    [a.profileId, '2026-03-01T10:01:00'],
    [f.profileId, '2026-03-01T10:05:00'],
    [a.profileId, '2026-03-01T11:00:00'],
    [f.profileId, '2026-03-01T11:02:00'],
    [f.profileId, '2026-03-01T11:03:00'],
  ]);
  // Bart's reply comes the next day after 4 h 10 min.
  await chat(b.profileId, f.profileId, [
    [b.profileId, '2026-03-01T20:00:00'],
    [f.profileId, '2026-03-02T00:10:00'],
  ]);
  // Eva wrote before the range; the reply on 1 March waited 5400 s.
  await chat(e.profileId, f.profileId, [
    [e.profileId, '2026-02-28T23:00:00'],
    [f.profileId, '2026-03-01T00:30:00'],
  ]);
  // The other site's member waits 100 s on 1 March: with this site's 120, 300 and 5400 s, the
  // median of both sites together is 210 s, neither site's own.
  await chat(elsewhere.profileId, f.profileId, [
    [elsewhere.profileId, '2026-03-01T12:00:00'],
    [f.profileId, '2026-03-01T12:01:40'],
  ]);
  // Members among themselves: not the operators' work.
  await chat(a.profileId, b.profileId, [[a.profileId, '2026-03-01T15:00:00']]);

  await db.insert(memberActiveDays).values([
    { siteId, day: '2026-03-01', userId: a.userId },
    { siteId, day: '2026-03-02', userId: a.userId },
    { siteId, day: '2026-03-01', userId: b.userId },
    { siteId, day: '2026-03-02', userId: c.userId },
    { siteId, day: '2026-03-03', userId: e.userId },
    { siteId: other!.id, day: '2026-03-01', userId: elsewhere.userId },
  ]);
  const visit = (clickId: string, seen: string, values: Partial<typeof visits.$inferInsert>) => ({
    siteId,
    clickId,
    path: '/landers/gallery',
    firstSeenAt: at(seen),
    ...values,
  });
  await db
    .insert(visits)
    .values([
      visit('c-a', '2026-03-01T09:59:00', { network: 'adnet', sub1: '=cmd|calc', lander: 'gallery' }),
      visit('c-a2', '2026-03-01T09:30:00', { network: 'adnet', sub1: '=cmd|calc', lander: 'gallery' }),
      visit('c-b', '2026-03-01T11:50:00', { network: 'adnet', sub1: 'x', lander: 'video' }),
      visit('c-o', '2026-03-02T10:00:00', { network: 'othernet', lander: 'video' }),
      visit('c-old', '2026-02-20T10:00:00', { network: 'adnet', lander: 'gallery' }),
    ]);
  return { siteId, otherId: other!.id, bart: b.profileId, fleur: f.profileId };
}

describe('the numbers of the back office (GET /api/admin/stats.php)', () => {
  let t: TestApp;
  let admin: TestStaff;
  let siteId: number;
  let otherId: number;
  let bart: number;
  let fleur: number;
  beforeAll(async () => {
    t = await createTestApp();
    admin = await signedInStaff(t.app, 'admin');
    ({ siteId, otherId, bart, fleur } = await seedFixture(t));
  });
  afterAll(() => t.close());

  const get = (query: string, cookie = admin.cookie) =>
    t.app.inject({ url: `/api/admin/stats.php?${query}`, headers: { cookie } });

  it('counts each day of a site exactly: members, orders, revenue per currency, messages, reply times', async () => {
    const response = await get(`from=2026-03-01&to=2026-03-03&site=${siteId}`);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.days).toEqual([
      {
        date: '2026-03-01',
        signups: 2,
        activations: 2,
        first_purchases: 0,
        orders: 0,
        revenue: {},
        messages_in: 4,
        replies_out: 4,
        median_reply_seconds: 300,
        active_members: 2,
        refunds: {},
        chargebacks: {},
      },
      {
        date: '2026-03-02',
        signups: 1,
        activations: 1,
        first_purchases: 2,
        orders: 2,
        revenue: { EUR: 1000, USD: 2500 },
        messages_in: 0,
        replies_out: 1,
        median_reply_seconds: 15000,
        active_members: 2,
        refunds: { EUR: 700 },
        chargebacks: {},
      },
      {
        date: '2026-03-03',
        signups: 0,
        activations: 0,
        first_purchases: 0,
        orders: 1,
        revenue: { EUR: 500 },
        messages_in: 0,
        replies_out: 0,
        median_reply_seconds: null,
        active_members: 1,
        refunds: {},
        chargebacks: {},
      },
    ]);
  });

  it('stores a closed day once and answers from it exactly what the messages say, one site or several', async () => {
    const first = (await get(`from=2026-03-01&to=2026-03-03&site=${siteId}`)).json();
    const db = t.app.deps.db;
    const stored = await db
      .select({ day: statsSiteDays.day, messagesIn: statsSiteDays.messagesIn, waits: statsSiteDays.waits })
      .from(statsSiteDays)
      .where(eq(statsSiteDays.siteId, siteId))
      .orderBy(asc(statsSiteDays.day));
    expect(stored).toEqual([
      { day: '2026-03-01', messagesIn: 4, waits: [120, 300, 5400] },
      { day: '2026-03-02', messagesIn: 0, waits: [15000] },
      { day: '2026-03-03', messagesIn: 0, waits: [] },
    ]);
    // A second look reads the stored days: the same answer.
    expect((await get(`from=2026-03-01&to=2026-03-03&site=${siteId}`)).json()).toEqual(first);

    // Both sites together: the stored days give the median of all their waits, as the messages do.
    await get(`from=2026-03-01&to=2026-03-03&site=${otherId}`);
    const both: repo.StatsRange = {
      from: '2026-03-01',
      to: '2026-03-03',
      start: new Date('2026-03-01T00:00:00Z'),
      end: new Date('2026-03-04T00:00:00Z'),
      siteIds: [siteId, otherId],
    };
    const byDay = <T extends { day: string }>(list: T[]) =>
      [...list].sort((a, b) => a.day.localeCompare(b.day));
    const fromMessages = byDay(await repo.messagesPerDay(db, both));
    const fromStore = byDay(await repo.storedSiteDays(db, both));
    expect(fromMessages.find((row) => row.day === '2026-03-01')).toEqual({
      day: '2026-03-01',
      messages_in: 5,
      replies_out: 5,
      median: 210,
    });
    expect(
      fromStore
        .filter((row) => row.messages_in + row.replies_out > 0)
        .map(({ active_members: _, ...row }) => row),
    ).toEqual(fromMessages);
    expect(fromStore.map((row) => row.active_members)).toEqual([3, 2, 1]);
  });

  it('closes a day an hour after it ends; until then its figures come from the messages', async () => {
    const db = t.app.deps.db;
    const storedDays = async () =>
      (
        await db
          .select({ day: statsSiteDays.day })
          .from(statsSiteDays)
          .where(and(eq(statsSiteDays.siteId, siteId), eq(statsSiteDays.messagesIn, 0)))
          .orderBy(asc(statsSiteDays.day))
      )
        .map((row) => row.day)
        .filter((day) => day < '2026-03-01');
    const query = { from: '2026-02-20', to: '2026-02-22', site: siteId, breakdown: 'network' } as const;
    await new StatsService(db, { now: () => new Date('2026-02-22T00:59:59Z') }).stats({
      ...query,
      granularity: 'day',
    });
    expect(await storedDays()).toEqual(['2026-02-20']);
    await new StatsService(db, { now: () => new Date('2026-02-22T01:00:00Z') }).stats({
      ...query,
      granularity: 'day',
    });
    expect(await storedDays()).toEqual(['2026-02-20', '2026-02-21']);

    // Today is open: a message and its reply of a minute ago count at once, and nothing is stored.
    const today = new Date().toISOString().slice(0, 10);
    const [conversation] = await db
      .select({ id: conversations.id })
      .from(conversations)
      .where(
        and(
          eq(conversations.lowProfileId, Math.min(bart, fleur)),
          eq(conversations.highProfileId, Math.max(bart, fleur)),
        ),
      );
    const now = Date.now();
    await db.insert(messages).values([
      {
        conversationId: conversation!.id,
        senderProfileId: bart,
        kind: 'text',
        text: 'hi',
        createdAt: new Date(now - 60_000),
      },
      {
        conversationId: conversation!.id,
        senderProfileId: fleur,
        kind: 'text',
        text: 'hey',
        createdAt: new Date(now),
      },
    ]);
    const body = (await get(`from=${today}&to=${today}&site=${siteId}`)).json();
    expect(body.days).toMatchObject([
      { date: today, messages_in: 1, replies_out: 1, median_reply_seconds: 60 },
    ]);
    const todayRows = await db
      .select()
      .from(statsSiteDays)
      .where(and(eq(statsSiteDays.siteId, siteId), eq(statsSiteDays.day, today)));
    expect(todayRows).toEqual([]);
  });

  it('breaks the traffic sources down: visits → signups → buyers → revenue, per network and within it', async () => {
    const byNetwork = (await get(`from=2026-03-01&to=2026-03-03&site=${siteId}`)).json();
    expect(byNetwork.breakdown).toBe('network');
    expect(funnel(byNetwork.trafficsources)).toEqual([
      { network: 'adnet', value: 'adnet', visits: 3, signups: 2, buyers: 1, revenue: { EUR: 1500 } },
      { network: null, value: null, visits: 0, signups: 1, buyers: 1, revenue: { USD: 2500 } },
      { network: 'othernet', value: 'othernet', visits: 1, signups: 0, buyers: 0, revenue: {} },
    ]);
    const bySub1 = (await get(`from=2026-03-01&to=2026-03-03&site=${siteId}&breakdown=sub1`)).json();
    expect(funnel(bySub1.trafficsources)).toEqual([
      { network: 'adnet', value: '=cmd|calc', visits: 2, signups: 1, buyers: 1, revenue: { EUR: 1500 } },
      { network: 'adnet', value: 'x', visits: 1, signups: 1, buyers: 0, revenue: {} },
      { network: null, value: null, visits: 0, signups: 1, buyers: 1, revenue: { USD: 2500 } },
      { network: 'othernet', value: null, visits: 1, signups: 0, buyers: 0, revenue: {} },
    ]);
    const byLander = (await get(`from=2026-03-01&to=2026-03-01&site=${siteId}&breakdown=lander`)).json();
    expect(funnel(byLander.trafficsources)).toEqual([
      { network: 'adnet', value: 'gallery', visits: 2, signups: 1, buyers: 0, revenue: {} },
      { network: 'adnet', value: 'video', visits: 1, signups: 1, buyers: 0, revenue: {} },
      // Eva, untracked, signed up before the range and activated in it: an activation of no source.
      { network: null, value: null, visits: 0, signups: 0, buyers: 0, revenue: {} },
    ]);
    expect(byLander.trafficsources.at(-1).activations).toBe(1);
  });

  it('covers every site when none is chosen, and refuses an unknown one', async () => {
    const all = (await get('from=2026-03-01&to=2026-03-01')).json();
    expect(all.site).toBeNull();
    const day = all.days[0];
    // At least this site's two signups and the other site's one (other tests' data may add more).
    expect(day.signups).toBeGreaterThanOrEqual(3);
    expect(day.active_members).toBeGreaterThanOrEqual(3);
    expect((await get('from=2026-03-01&to=2026-03-01&site=999999')).statusCode).toBe(404);
  });

  it('answers a wrong range with field errors', async () => {
    const reversed = await get(`from=2026-03-03&to=2026-03-01&site=${siteId}`);
    expect(reversed.statusCode).toBe(422);
    expect(reversed.json().fields).toEqual({ to: 'out_of_range' });
    const tooLong = await get(`from=2024-01-01&to=2026-03-01&site=${siteId}`);
    expect(tooLong.statusCode).toBe(422);
    expect(tooLong.json().fields).toEqual({ from: 'out_of_range' });
    const bad = await get(`from=yesterday&to=2026-03-01&breakdown=os`);
    expect(bad.statusCode).toBe(422);
    expect(Object.keys(bad.json().fields).sort()).toEqual(['breakdown', 'from']);
  });

  it('is for admins only: operators and moderators get 403 forbidden, members 403 staff_required', async () => {
    for (const role of ['operator', 'moderator'] as const) {
      const staff = await signedInStaff(t.app, role);
      for (const url of [
        `/api/admin/stats.php?from=2026-03-01&to=2026-03-03`,
        `/api/admin/stats-export.php?from=2026-03-01&to=2026-03-03`,
      ]) {
        const refused = await t.app.inject({ url, headers: { cookie: staff.cookie } });
        expect(refused.statusCode).toBe(403);
        expect(refused.json().error).toBe('forbidden');
      }
    }
    const member = await activeMember(t.app);
    const asMember = await get('from=2026-03-01&to=2026-03-03', member.cookie);
    expect(asMember.statusCode).toBe(403);
    expect(asMember.json().error).toBe('staff_required');
  });

  it('downloads both tables as CSV, formula-safe', async () => {
    const days = await t.app.inject({
      url: `/api/admin/stats-export.php?from=2026-03-01&to=2026-03-03&site=${siteId}`,
      headers: { cookie: admin.cookie },
    });
    expect(days.statusCode).toBe(200);
    expect(days.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(days.headers['content-disposition']).toBe(
      `attachment; filename="stats-days-2026-03-01-2026-03-03-site${siteId}.csv"`,
    );
    expect(days.body).toBe(
      [
        'date,signups,activations,first_purchases,orders,revenue_EUR,revenue_USD,messages_in,replies_out,median_reply_seconds,active_members,refunds_EUR,chargebacks_EUR',
        '2026-03-01,2,2,0,0,0.00,0.00,4,4,300,2,0.00,0.00',
        '2026-03-02,1,1,2,2,10.00,25.00,0,1,15000,2,7.00,0.00',
        '2026-03-03,0,0,0,1,5.00,0.00,0,0,,1,0.00,0.00',
        '',
      ].join('\r\n'),
    );
    const sources = await t.app.inject({
      url: `/api/admin/stats-export.php?from=2026-03-01&to=2026-03-03&site=${siteId}&breakdown=sub1&table=trafficsources`,
      headers: { cookie: admin.cookie },
    });
    expect(sources.body).toBe(
      [
        'network,sub1,visits,signups,buyers,revenue_EUR,revenue_USD,activations,revenue_per_signup_EUR,revenue_per_signup_USD',
        `adnet,'=cmd|calc,2,1,1,15.00,0.00,1,15.00,0.00`,
        'adnet,x,1,1,0,0.00,0.00,1,0.00,0.00',
        ',,0,1,1,0.00,25.00,1,0.00,25.00',
        'othernet,,1,0,0,0.00,0.00,0,0.00,0.00',
        '',
      ].join('\r\n'),
    );
  });
});

/**
 * The owner's money over two signup weeks of a site of its own, computed by hand: a paid order, a
 * partly refunded one, a charged-back one, a wholly refunded one; four members active.
 */
describe('the owner’s totals, refunds, chargebacks and cohorts', () => {
  let t: TestApp;
  let admin: TestStaff;
  let siteId: number;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await signedInStaff(t.app, 'admin');
    const db = t.app.deps.db;
    const [company] = await db.select({ id: companies.id }).from(companies).limit(1);
    const [site] = await db
      .insert(sites)
      .values({
        domain: `money-${process.pid}-${Date.now()}.localhost`,
        name: 'Money site',
        indexTitle: 'Money',
        description: '',
        countries: ['NL'],
        supportEmail: 'support@example.com',
        companyId: company!.id,
      })
      .returning({ id: sites.id });
    siteId = site!.id;
    const member = async (name: string, signup: string, firstPurchase: string | null, fictional = false) => {
      const [user] = await db
        .insert(users)
        .values({
          siteId,
          email: fictional ? null : `${name}.${siteId}@example.com`,
          status: 'active',
          signupDate: at(signup),
          firstPurchaseAt: firstPurchase ? at(firstPurchase) : null,
        })
        .returning({ id: users.id });
      await db
        .insert(profiles)
        .values({ userId: user!.id, name, birthdate: '1990-01-01', country: 'NL', fictional });
      return user!.id;
    };
    const p = await member('Pia', '2026-04-06T10:00:00', '2026-04-06T12:00:00');
    const q = await member('Quin', '2026-04-07T08:00:00', '2026-04-10T08:00:00');
    const r = await member('Rik', '2026-04-13T09:00:00', null);
    const s2 = await member('Sam', '2026-04-14T09:00:00', '2026-04-14T10:00:00');
    await member('Fay', '2026-04-06T09:00:00', '2026-04-06T09:30:00', true);
    const [bundle] = await db.select({ id: bundles.id }).from(bundles).limit(1);
    const order = (
      userId: number,
      amountCents: number,
      settled: string,
      more: Partial<typeof orders.$inferInsert> = {},
    ): typeof orders.$inferInsert => ({
      userId,
      siteId,
      bundleId: bundle!.id,
      credits: 10,
      amountCents,
      listPriceCents: amountCents,
      currency: 'EUR',
      country: 'NL',
      paymentMethod: 'ideal',
      provider: 'test',
      status: 'completed',
      createdAt: at(settled),
      settledAt: at(settled),
      ...more,
    });
    await db.insert(orders).values([
      order(p, 1000, '2026-04-06T12:00:00'),
      order(p, 2000, '2026-04-08T09:00:00', {
        status: 'refunded',
        refundCents: 500,
        refundCredits: 2,
        refundRequestedAt: at('2026-04-09T10:00:00'),
      }),
      order(q, 3000, '2026-04-10T08:00:00', { status: 'refunded', chargedBackAt: at('2026-04-12T10:00:00') }),
      order(s2, 800, '2026-04-14T10:00:00'),
      order(s2, 1200, '2026-04-15T10:00:00', {
        status: 'refunded',
        refundRequestedAt: at('2026-04-16T10:00:00'),
      }),
    ]);
    await db.insert(memberActiveDays).values([
      { siteId, day: '2026-04-06', userId: p },
      { siteId, day: '2026-04-07', userId: p },
      { siteId, day: '2026-04-10', userId: q },
      { siteId, day: '2026-04-13', userId: r },
      { siteId, day: '2026-04-14', userId: s2 },
    ]);
  });
  afterAll(() => t.close());

  const numbers = async () => {
    const answer = await t.app.inject({
      url: `/api/admin/stats.php?from=2026-04-06&to=2026-04-19&site=${siteId}`,
      headers: { cookie: admin.cookie },
    });
    expect(answer.statusCode, answer.body).toBe(200);
    return answer.json();
  };

  it('revenue keeps what a partial refund left and nothing of a chargeback or a whole refund; ARPU and ARPPU from it', async () => {
    const { totals, days } = await numbers();
    expect(totals).toEqual({
      revenue_cents: { EUR: 3300 },
      refunds_cents: { EUR: 1700 },
      chargebacks_cents: { EUR: 3000 },
      orders: 3,
      paying_members: 2,
      active_members: 4,
      arpu_cents: { EUR: 825 },
      arppu_cents: { EUR: 1650 },
    });
    const day = (date: string) => days.find((entry: { date: string }) => entry.date === date);
    expect(day('2026-04-08')).toMatchObject({ orders: 1, revenue: { EUR: 1500 } });
    expect(day('2026-04-09')).toMatchObject({ refunds: { EUR: 500 }, chargebacks: {} });
    expect(day('2026-04-10')).toMatchObject({ orders: 0, revenue: {} });
    expect(day('2026-04-12')).toMatchObject({ refunds: {}, chargebacks: { EUR: 3000 } });
    expect(day('2026-04-16')).toMatchObject({ refunds: { EUR: 1200 } });
  });

  it('cohorts by signup week: who paid within 1, 7 and 30 days, the median hours, and revenue per member', async () => {
    const { cohorts } = await numbers();
    expect(cohorts).toEqual([
      {
        week: '2026-04-06',
        signups: 2,
        paid_within_1d: 1,
        paid_within_7d: 2,
        paid_within_30d: 2,
        median_hours_to_first_purchase: 37,
        revenue_per_member_7d_cents: { EUR: 1250 },
        revenue_per_member_30d_cents: { EUR: 1250 },
        revenue_per_member_90d_cents: { EUR: 1250 },
      },
      {
        week: '2026-04-13',
        signups: 2,
        paid_within_1d: 1,
        paid_within_7d: 1,
        paid_within_30d: 1,
        median_hours_to_first_purchase: 1,
        revenue_per_member_7d_cents: { EUR: 400 },
        revenue_per_member_30d_cents: { EUR: 400 },
        revenue_per_member_90d_cents: { EUR: 400 },
      },
    ]);
  });
});

describe('CSV fields', () => {
  it('quotes what needs quoting and defuses formulas', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    for (const formula of ['=1+1', '+1', '-1', '@SUM(A1)', '\tx', '\rx']) {
      expect(csvField(formula).replace(/^"/, '')).toMatch(/^'/);
    }
    expect(csvField('=HYPERLINK("http://x","y")')).toBe(`"'=HYPERLINK(""http://x"",""y"")"`);
    expect(csvField(-5)).toBe('-5');
    expect(csvField(null)).toBe('');
    expect(toCsv([['a', 1]])).toBe('a,1\r\n');
  });
});
