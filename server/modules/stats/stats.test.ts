import { and, asc, eq, gte, lte, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Database } from '#server/db/client.ts';
import { bundles } from '#server/db/schema/catalog.ts';
import { conversations, messages } from '#server/db/schema/chats.ts';
import { profiles, type TrafficSource, users } from '#server/db/schema/members.ts';
import { orders } from '#server/db/schema/payments.ts';
import { reports } from '#server/db/schema/social.ts';
import { staff, staffAudit } from '#server/db/schema/staff.ts';
import {
  memberActiveDays,
  statsActiveSpans,
  statsReplyDays,
  statsSiteDays,
  statsStaffReplyDays,
  visits,
} from '#server/db/schema/tracking.ts';
import { csvField, toCsv } from '#server/lib/csv.ts';
import { activeMember } from '../../../tests/setup/members.ts';
import { insertSite } from '../../../tests/setup/sites.ts';
import { signedInStaff, type TestStaff } from '../../../tests/setup/staff.ts';
import { createTestApp, type TestApp } from '../../../tests/setup/test-app.ts';
import { testPooler } from '../../../tests/setup/test-database.ts';
import * as repliesRepo from './replies.repository.ts';
import { ReplyNumbersService } from './replies.service.ts';
import * as repo from './stats.repository.ts';
import { rows } from './stats.repository.ts';
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
  const siteId = await insertSite(db, 'stats', 'Stats site');
  const otherId = await insertSite(db, 'stats-other', 'Other site');
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
  const elsewhere = await member('Olaf', { signup: '2026-03-01T09:00:00', siteId: otherId });

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
    { siteId: otherId, day: '2026-03-01', userId: elsewhere.userId },
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
  return { siteId, otherId, bart: b.profileId, fleur: f.profileId };
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
    siteId = await insertSite(db, 'money', 'Money site');
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

  it('active members per week and month: the heads by hand', async () => {
    const answer = await t.app.inject({
      url: `/api/admin/stats.php?from=2026-04-06&to=2026-04-19&site=${siteId}&granularity=week`,
      headers: { cookie: admin.cookie },
    });
    expect(answer.statusCode, answer.body).toBe(200);
    // Worked out by hand: Pia twice and Quin in the first week, Rik and Sam in the second.
    expect(
      answer
        .json()
        .periods.map((row: { period: string; paying_members: number; active_members: number }) => ({
          period: row.period,
          paying: row.paying_members,
          active: row.active_members,
        })),
    ).toEqual([
      { period: '2026-04-06', paying: 1, active: 2 },
      { period: '2026-04-13', paying: 1, active: 2 },
    ]);
    const month = await t.app.inject({
      url: `/api/admin/stats.php?from=2026-04-06&to=2026-04-19&site=${siteId}&granularity=month`,
      headers: { cookie: admin.cookie },
    });
    expect(month.json().periods).toMatchObject([{ period: '2026-04-06', active_members: 4 }]);
    expect(month.json().totals).toMatchObject({ active_members: 4 });
  });

  it('active members of a range and of its weeks and months equal a count(distinct) of the active days, stored or open', async () => {
    const db = t.app.deps.db;
    const site = await insertSite(db, 'spans', 'Spans site');
    const people = await db
      .insert(users)
      .values(
        ['a', 'b', 'c', 'd', 'e'].map((name) => ({
          siteId: site,
          email: `${name}.spans.${site}@example.com`,
          status: 'active' as const,
          signupDate: at('2026-03-01T10:00:00'),
        })),
      )
      .returning({ id: users.id });
    const [a, b, c, d, e] = people.map((row) => row.id);
    // a before and after the middle of April, b only before, c only after, d on both sides of a
    // month's end, e on one day that opens late.
    await db.insert(memberActiveDays).values([
      { siteId: site, day: '2026-03-30', userId: a! },
      { siteId: site, day: '2026-04-08', userId: a! },
      { siteId: site, day: '2026-04-15', userId: a! },
      { siteId: site, day: '2026-04-09', userId: b! },
      { siteId: site, day: '2026-04-16', userId: c! },
      { siteId: site, day: '2026-03-31', userId: d! },
      { siteId: site, day: '2026-04-15', userId: d! },
      { siteId: site, day: '2026-04-14', userId: e! },
    ]);
    const counted = z.array(z.object({ period: z.string(), n: z.coerce.number() }));
    const byDefinition = async (from: string, to: string, unit: 'week' | 'month') => ({
      whole: (
        await rows(
          db,
          z.array(z.object({ n: z.coerce.number() })),
          sql`select count(distinct user_id) as n from member_active_days
            where site_id = ${site} and day >= ${from}::date and day <= ${to}::date`,
        )
      )[0]!.n,
      periods: new Map(
        (
          await rows(
            db,
            counted,
            sql`select to_char(date_trunc(${unit}, day), 'YYYY-MM-DD') as period, count(distinct user_id) as n
              from member_active_days
              where site_id = ${site} and day >= ${from}::date and day <= ${to}::date group by 1`,
          )
        ).map((row) => [row.period, row.n]),
      ),
    });
    const startOf = (day: string, unit: 'week' | 'month') => {
      if (unit === 'month') return `${day.slice(0, 7)}-01`;
      const time = Date.parse(`${day}T00:00:00Z`);
      return new Date(time - ((new Date(time).getUTCDay() + 6) % 7) * 86_400_000).toISOString().slice(0, 10);
    };
    const storedSpans = () =>
      db
        .select({ first: statsActiveSpans.firstDay, last: statsActiveSpans.lastDay })
        .from(statsActiveSpans)
        .where(eq(statsActiveSpans.siteId, site));
    // The middle of April open; 2026-04-14 still open at 00:30 the next day and closed at 01:00;
    // then every day closed. The days closed at each moment are stored, the open ones never.
    for (const [now, lastClosed] of [
      ['2026-04-10T12:00:00Z', '2026-04-09'],
      ['2026-04-15T00:30:00Z', '2026-04-13'],
      ['2026-04-15T01:00:00Z', '2026-04-14'],
      ['2026-05-20T12:00:00Z', '2026-05-19'],
    ] as const) {
      const service = new StatsService(db, { now: () => new Date(now) });
      for (const [from, to] of [
        ['2026-03-30', '2026-04-19'],
        ['2026-04-08', '2026-04-16'],
        ['2026-03-25', '2026-04-30'],
      ] as const) {
        for (const unit of ['week', 'month'] as const) {
          const answer = await service.stats({ from, to, site, breakdown: 'network', granularity: unit });
          const expected = await byDefinition(from, to, unit);
          expect(answer.totals.active_members, `${now} ${from}…${to}`).toBe(expected.whole);
          expect(
            answer.periods.map((period) => period.active_members),
            `${now} ${from}…${to} per ${unit}`,
          ).toEqual(answer.periods.map((period) => expected.periods.get(startOf(period.period, unit)) ?? 0));
        }
      }
      const stored = await storedSpans();
      expect(stored.length).toBeGreaterThan(0);
      expect(stored.filter((span) => span.first > span.last || span.last > lastClosed)).toEqual([]);
    }
    expect(await storedSpans()).toContainEqual({ first: '2026-04-08', last: '2026-04-13' });
    expect(await storedSpans()).toContainEqual({ first: '2026-04-08', last: '2026-04-16' });
  });

  it('two calls at once store each span once and answer alike', async () => {
    const db = t.app.deps.db;
    const service = new StatsService(db, { now: () => new Date('2026-05-01T12:00:00Z') });
    const query = {
      from: '2026-04-01',
      to: '2026-04-30',
      site: siteId,
      breakdown: 'network',
      granularity: 'week',
    } as const;
    const answers = await Promise.all([service.stats(query), service.stats(query), service.stats(query)]);
    expect(new Set(answers.map((answer) => JSON.stringify(answer.periods))).size).toBe(1);
    expect(answers[0]!.totals.active_members).toBe(4);
    const [found] = await rows(
      db,
      z.array(z.object({ n: z.coerce.number() })),
      sql`select count(*) as n from stats_active_spans
        where site_id = ${siteId} and first_day = '2026-04-01' and last_day = '2026-04-30'`,
    );
    expect(found?.n).toBe(1);
    expect(
      await repo.payingMembers(db, {
        from: '2026-04-07',
        to: '2026-04-13',
        start: at('2026-04-07T00:00:00'),
        end: at('2026-04-14T00:00:00'),
        siteIds: [siteId],
      }),
    ).toBe(1);
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

/**
 * The replies of the staff as the live query stated them before decision 061 (a lookup per reply
 * and per credit): the reference the stored days and the open days must equal together.
 */
async function repliesByDefinition(
  db: Database,
  scope: { from: string; to: string; siteIds: number[] | null; staffIds: number[] | null },
) {
  const ids = (list: number[]) =>
    list.length === 0
      ? sql`null`
      : sql.join(
          list.map((id) => sql`${id}`),
          sql`, `,
        );
  const sites =
    scope.siteIds === null
      ? sql``
      : sql`and exists (
          select 1 from conversations c
          join profiles lp on lp.id = c.low_profile_id
          join profiles hp on hp.id = c.high_profile_id
          join users mu on mu.id = case when lp.fictional then hp.user_id else lp.user_id end
          where c.id = m.conversation_id and mu.site_id in (${ids(scope.siteIds)}))`;
  const staffOnly = scope.staffIds === null ? sql`` : sql`and a.staff_id in (${ids(scope.staffIds)})`;
  const number = z.coerce.number();
  const found = await rows(
    db,
    z.array(
      z.object({
        staff_id: number.nullable(),
        profile_id: number.nullable(),
        replies: number,
        conversations: number,
        median: number.nullable(),
        p90: number.nullable(),
        earned: number,
        reports: number,
      }),
    ),
    sql`with r as (
      select a.staff_id, m.sender_profile_id as profile_id, m.conversation_id,
        (a.detail->>'waited_seconds')::float8 as waited,
        coalesce((
          select sum(x.credits) from messages x
          where x.conversation_id = m.conversation_id and x.id > m.id
            and x.sender_profile_id <> m.sender_profile_id and x.credits > 0
            and x.created_at <= m.created_at + interval '24 hours'
            and not exists (
              select 1 from messages n
              where n.conversation_id = m.conversation_id and n.id > m.id and n.id < x.id
                and n.sender_profile_id = m.sender_profile_id
            )
        ), 0) as earned,
        (select count(*) from reports r where r.message_id = m.id) as reports
      from staff_audit a
      join messages m on m.id = (a.detail->>'message')::int
      where a.action = 'reply' and a.at >= ${at(`${scope.from}T00:00:00`)}
        and a.at < ${new Date(at(`${scope.to}T00:00:00`).getTime() + 86_400_000)}
        and a.staff_id is not null ${staffOnly} ${sites}
      )
      select r.staff_id, r.profile_id, count(*) as replies, count(distinct r.conversation_id) as conversations,
        percentile_cont(0.5) within group (order by r.waited) as median,
        percentile_cont(0.9) within group (order by r.waited) as p90,
        sum(r.earned) as earned, sum(r.reports) as reports
      from r
      group by grouping sets ((r.staff_id), (r.profile_id))`,
  );
  const round = (value: number | null) => (value === null ? null : Math.round(value));
  return {
    operators: found
      .filter((row) => row.staff_id !== null)
      .map((row) => ({
        id: row.staff_id!,
        replies: row.replies,
        conversations: row.conversations,
        median: round(row.median),
        p90: round(row.p90),
        earned: row.earned,
        reports: row.reports,
      }))
      .sort((a, b) => a.id - b.id),
    profiles: found
      .filter((row) => row.profile_id !== null)
      .map((row) => ({ id: row.profile_id!, replies: row.replies, earned: row.earned }))
      .sort((a, b) => a.id - b.id),
  };
}

/** The same figures as the reply numbers give them, in the shape of repliesByDefinition. */
async function repliesByService(
  db: Database,
  now: string,
  scope: { from: string; to: string; siteIds: number[]; staffIds: number[] | null },
) {
  const numbers = new ReplyNumbersService(db, { now: () => at(now) });
  const operators = (await numbers.operators(scope))
    .map((row) => ({
      id: row.staff.id,
      replies: row.replies,
      conversations: row.conversations,
      median: row.median_reply_seconds,
      p90: row.p90_reply_seconds,
      earned: row.earned_credits,
      reports: row.reports,
    }))
    .sort((a, b) => a.id - b.id);
  if (scope.staffIds !== null) return { operators };
  const { profiles: perProfile } = await numbers.everyone(scope);
  return {
    operators,
    profiles: perProfile
      .map((row) => ({ id: row.profile.id, replies: row.replies, earned: row.earned_credits }))
      .sort((a, b) => a.id - b.id),
  };
}

/**
 * Two sites' replies over 1–11 June 2026, worked out by hand for two operators: conversations
 * replied in on several days (one before the range), credits within and after the 24 hours, a later
 * reply and an automated message that end a reply's window, a wait not recorded, and a reply whose
 * credits come on the next day. With "now" at noon on 10 June, the days up to 8 June are stored and
 * 9 and 10 June are computed from the messages.
 */
describe('the staff’s replies: stored closed days and the open ones equal the live query', () => {
  let t: TestApp;
  let db: Database;
  let siteA: number;
  let siteB: number;
  let op1: number;
  let op2: number;
  let reportOn: { message: number; member: number; profile: number };

  beforeAll(async () => {
    t = await createTestApp();
    db = t.app.deps.db;
    siteA = await insertSite(db, 'replies-a');
    siteB = await insertSite(db, 'replies-b');
    const person = async (name: string, siteId: number, fictional = false) => {
      const [user] = await db
        .insert(users)
        .values({
          siteId,
          email: fictional ? null : `${name}.${siteId}@example.com`,
          status: 'active',
          signupDate: at('2026-05-01T00:00:00'),
        })
        .returning({ id: users.id });
      const [profile] = await db
        .insert(profiles)
        .values({ userId: user!.id, name, birthdate: '1990-01-01', country: 'NL', fictional })
        .returning({ id: profiles.id });
      return { userId: user!.id, profileId: profile!.id };
    };
    const a1 = await person('Ada', siteA);
    const a2 = await person('Bob', siteA);
    const b1 = await person('Cor', siteB);
    const f1 = (await person('Fay', siteA, true)).profileId;
    const f2 = (await person('Gus', siteA, true)).profileId;
    const operator = async (name: string) =>
      (
        await db
          .insert(staff)
          .values({
            email: `${name}.${process.pid}.${Date.now()}@example.com`,
            name,
            role: 'operator',
            passwordHash: 'x',
            createdAt: at('2026-05-01T00:00:00'),
          })
          .returning({ id: staff.id })
      )[0]!.id;
    op1 = await operator('Olga');
    op2 = await operator('Piet');
    const conversation = async (member: number, profile: number) =>
      (
        await db
          .insert(conversations)
          .values({
            lowProfileId: Math.min(member, profile),
            highProfileId: Math.max(member, profile),
            startedByProfileId: member,
            createdAt: at('2026-05-31T00:00:00'),
          })
          .returning({ id: conversations.id })
      )[0]!.id;
    const say = async (conversationId: number, sender: number, when: string, credits = 0) =>
      (
        await db
          .insert(messages)
          .values({
            conversationId,
            senderProfileId: sender,
            kind: 'text',
            text: 'x',
            credits,
            createdAt: at(when),
          })
          .returning({ id: messages.id })
      )[0]!.id;
    const reply = async (
      staffId: number,
      conversationId: number,
      profile: number,
      when: string,
      waited: number | null,
    ) => {
      const id = await say(conversationId, profile, when);
      await db.insert(staffAudit).values({
        staffId,
        action: 'reply',
        object: `conversation:${conversationId}`,
        detail: waited === null ? { message: id } : { message: id, waited_seconds: waited },
        at: at(when),
      });
      return id;
    };
    // c1 (site A): op1 replied on 1 June (before the range), then 4 June: 3 + 2 within 24 h, 4 after.
    const c1 = await conversation(a1.profileId, f1);
    await say(c1, a1.profileId, '2026-06-01T10:00:00', 2);
    await reply(op1, c1, f1, '2026-06-01T10:05:00', 300);
    await say(c1, a1.profileId, '2026-06-04T09:00:00', 1);
    const reported = await reply(op1, c1, f1, '2026-06-04T09:10:00', 600);
    await say(c1, a1.profileId, '2026-06-04T10:00:00', 3);
    await say(c1, a1.profileId, '2026-06-05T09:00:00', 2);
    await say(c1, a1.profileId, '2026-06-05T09:30:00', 4);
    // … and on 9 June (open): 5 after it.
    await say(c1, a1.profileId, '2026-06-09T08:00:00', 1);
    await reply(op1, c1, f1, '2026-06-09T08:30:00', 1800);
    await say(c1, a1.profileId, '2026-06-09T09:00:00', 5);
    // c2 (site A): op2 replies late on 8 June, op1 just after (no wait recorded): the 3 of 9 June are
    // op1's; an automated message of the profile ends the window, so the 6 are nobody's.
    const c2 = await conversation(a2.profileId, f2);
    await say(c2, a2.profileId, '2026-06-08T22:00:00', 1);
    await reply(op2, c2, f2, '2026-06-08T23:00:00', 3600);
    await reply(op1, c2, f2, '2026-06-08T23:30:00', null);
    await say(c2, a2.profileId, '2026-06-09T10:00:00', 3);
    await say(c2, f2, '2026-06-09T11:00:00');
    await say(c2, a2.profileId, '2026-06-09T12:00:00', 6);
    // c3 (site B): op2 on 3, 7 and 10 June; the 1 of 10 June comes more than 24 h after 7 June's.
    const c3 = await conversation(b1.profileId, f1);
    await say(c3, b1.profileId, '2026-06-03T12:00:00', 2);
    const reportedB = await reply(op2, c3, f1, '2026-06-03T12:01:40', 100);
    await say(c3, b1.profileId, '2026-06-03T13:00:00', 2);
    await reply(op2, c3, f1, '2026-06-07T10:00:00', 50);
    await say(c3, b1.profileId, '2026-06-07T11:00:00', 7);
    await say(c3, b1.profileId, '2026-06-10T09:00:00', 1);
    await reply(op2, c3, f1, '2026-06-10T09:05:00', 300);
    await say(c3, b1.profileId, '2026-06-10T09:06:00', 2);
    // c4 (site A): op1 on 5, 6 (twice) and 9 June: one conversation however the range cuts it.
    const c4 = await conversation(a1.profileId, f2);
    await say(c4, a1.profileId, '2026-06-05T10:00:00', 1);
    await reply(op1, c4, f2, '2026-06-05T10:01:00', 60);
    await say(c4, a1.profileId, '2026-06-06T10:00:00', 1);
    await reply(op1, c4, f2, '2026-06-06T10:02:00', 120);
    await reply(op1, c4, f2, '2026-06-06T10:03:00', 0);
    await reply(op1, c4, f2, '2026-06-09T10:00:00', 30);
    // After the ranges asked for.
    await reply(op1, c1, f1, '2026-06-12T10:00:00', 10);
    await db.insert(reports).values({
      reporterUserId: b1.userId,
      profileId: f1,
      messageId: reportedB,
      reason: 'offensive',
      createdAt: at('2026-06-03T14:00:00'),
    });
    reportOn = { message: reported, member: a1.userId, profile: f1 };
  });
  afterAll(() => t.close());

  const scopes = () => [
    { siteIds: [siteA, siteB], staffIds: null },
    { siteIds: [siteA], staffIds: null },
    { siteIds: [siteB], staffIds: null },
    { siteIds: [siteA, siteB], staffIds: [op1] },
    { siteIds: [siteB], staffIds: [op2] },
    { siteIds: [siteA], staffIds: [op1, op2] },
  ];
  const ranges = [
    { from: '2026-06-03', to: '2026-06-10' },
    { from: '2026-06-05', to: '2026-06-09' },
    { from: '2026-06-06', to: '2026-06-06' },
    { from: '2026-06-08', to: '2026-06-10' },
    { from: '2026-06-09', to: '2026-06-10' },
  ];
  const compare = async (now: string) => {
    for (const range of ranges)
      for (const filter of scopes()) {
        const scope = { ...range, ...filter };
        const expected = await repliesByDefinition(db, scope);
        const found = await repliesByService(db, now, scope);
        expect(found, JSON.stringify({ now, scope })).toEqual(
          filter.staffIds === null ? expected : { operators: expected.operators },
        );
      }
  };

  it('the definition, worked out by hand: replies, conversations, waits, earnings, reports', async () => {
    const { operators, profiles: perProfile } = await repliesByDefinition(db, {
      from: '2026-06-03',
      to: '2026-06-10',
      siteIds: null,
      staffIds: [op1, op2],
    });
    // op1: waits 0, 30, 60, 120, 600, 1,800 (one not recorded): median 90, p90 600 + 0.5 × 1,200;
    // earned 5 (c1, 4 June) + 5 (c1, 9 June) + 3 (c2) + 1 (c4, 5 June).
    // op2: waits 50, 100, 300, 3,600: median 200, p90 300 + 0.7 × 3,300; earned 2 + 7 + 2.
    expect(operators).toEqual([
      { id: op1, replies: 7, conversations: 3, median: 90, p90: 1200, earned: 14, reports: 0 },
      { id: op2, replies: 4, conversations: 2, median: 200, p90: 2610, earned: 11, reports: 1 },
    ]);
    expect(perProfile.map(({ replies, earned }) => ({ replies, earned }))).toEqual([
      { replies: 5, earned: 21 },
      { replies: 6, earned: 4 },
    ]);
  });

  it('every day computed from the messages (none closed yet) equals the definition', async () => {
    await compare('2026-06-01T00:00:00');
    expect(await db.select().from(statsReplyDays).where(gte(statsReplyDays.day, '2026-06-01'))).toEqual([]);
  });

  it('stored closed days and the open ones after them equal the definition, and a later report counts', async () => {
    await compare('2026-06-10T12:00:00');
    const stored = await db
      .select({ day: statsReplyDays.day })
      .from(statsReplyDays)
      .where(gte(statsReplyDays.day, '2026-06-01'))
      .orderBy(asc(statsReplyDays.day));
    // Closed: up to 8 June (its replies earned until 9 June's end, and an hour for late writes).
    expect(stored.map((row) => row.day)).toEqual([
      '2026-06-03',
      '2026-06-04',
      '2026-06-05',
      '2026-06-06',
      '2026-06-07',
      '2026-06-08',
    ]);
    const op1Days = await db
      .select({
        day: statsStaffReplyDays.day,
        replies: statsStaffReplyDays.replies,
        earned: statsStaffReplyDays.earned,
        waits: statsStaffReplyDays.waits,
        earlierDays: statsStaffReplyDays.earlierDays,
      })
      .from(statsStaffReplyDays)
      .where(eq(statsStaffReplyDays.staffId, op1))
      .orderBy(asc(statsStaffReplyDays.day));
    expect(op1Days).toEqual([
      { day: '2026-06-04', replies: 1, earned: 5, waits: [600], earlierDays: ['2026-06-01'] },
      { day: '2026-06-05', replies: 1, earned: 1, waits: [60], earlierDays: ['-infinity'] },
      { day: '2026-06-06', replies: 2, earned: 0, waits: [0, 120], earlierDays: ['2026-06-05'] },
      { day: '2026-06-08', replies: 1, earned: 3, waits: [], earlierDays: ['-infinity'] },
    ]);
    // A member reports a stored day's reply afterwards: the report counts (reports are never stored).
    await db.insert(reports).values({
      reporterUserId: reportOn.member,
      profileId: reportOn.profile,
      messageId: reportOn.message,
      reason: 'offensive',
      createdAt: at('2026-06-10T13:00:00'),
    });
    await compare('2026-06-10T13:00:00');
    const [own] = (
      await repliesByService(db, '2026-06-10T13:00:00', {
        from: '2026-06-03',
        to: '2026-06-10',
        siteIds: [siteA],
        staffIds: [op1],
      })
    ).operators;
    expect(own).toMatchObject({ replies: 7, conversations: 3, earned: 14, reports: 1 });
  });

  it('once every day is closed, the stored days alone equal the definition', async () => {
    await compare('2026-07-01T00:00:00');
    const days = await db
      .select({ day: statsReplyDays.day })
      .from(statsReplyDays)
      .where(and(gte(statsReplyDays.day, '2026-06-01'), lte(statsReplyDays.day, '2026-06-30')));
    expect(days).toHaveLength(8);
  });

  // On PostgreSQL only: the embedded database is one connection, so nothing there runs in parallel.
  if (process.env.DATABASE_URL)
    it('two instances filling the same days at once store each day once', async () => {
      const { connectPostgres } = await import('#server/db/client.ts');
      const second = await connectPostgres(t.databaseUrl!, 2, testPooler);
      try {
        // The days of 1–12 June stored so far are forgotten (their rows go with them), then filled
        // by both instances at once, over the same span and over overlapping ones.
        await db.delete(statsReplyDays).where(gte(statsReplyDays.day, '2026-06-01'));
        const filled = await Promise.all([
          repliesRepo.fillReplyDays(db, { from: '2026-06-01', to: '2026-06-12' }),
          repliesRepo.fillReplyDays(second.db, { from: '2026-06-01', to: '2026-06-12' }),
          repliesRepo.fillReplyDays(db, { from: '2026-06-05', to: '2026-06-12' }),
          repliesRepo.fillReplyDays(second.db, { from: '2026-06-01', to: '2026-06-07' }),
        ]);
        const claimed = filled.flat().sort();
        expect(claimed).toEqual([...new Set(claimed)]);
        expect(claimed).toHaveLength(12);
        const perKey = await rows(
          db,
          z.array(z.object({ n: z.coerce.number() })),
          sql`select count(*) as n from stats_staff_reply_days where day >= '2026-06-01'
            group by day, site_id, staff_id having count(*) > 1`,
        );
        expect(perKey).toEqual([]);
        await compare('2026-07-01T00:00:00');
      } finally {
        await second.close();
      }
    });
});
