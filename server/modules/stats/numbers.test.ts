import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundles } from '#server/db/schema/catalog.ts';
import { conversations, messages } from '#server/db/schema/chats.ts';
import { profiles, type TrafficSource, users } from '#server/db/schema/members.ts';
import { winbackOffers } from '#server/db/schema/nudges.ts';
import { discountCodes, orders } from '#server/db/schema/payments.ts';
import { companies, sites } from '#server/db/schema/sites.ts';
import { reports } from '#server/db/schema/social.ts';
import { staffAudit } from '#server/db/schema/staff.ts';
import { memberActiveDays, trafficCosts, visits } from '#server/db/schema/tracking.ts';
import { signedInStaff, type TestStaff } from '../../../tests/setup/staff.ts';
import { createTestApp, type TestApp } from '../../../tests/setup/test-app.ts';
import * as repo from './stats.repository.ts';

const at = (iso: string) => new Date(`${iso}Z`);

/**
 * A site over 4–17 May 2026 (UTC; two ISO weeks) with figures worked out by hand: three members, two
 * fictional profiles, three conversations in which two operators replied (audit entries as the
 * console writes them) and members spent credits before, within and after the 24 hours, orders in
 * both weeks, a win-back code redeemed and one not, landing clicks and entered costs.
 */
describe('the owner’s numbers: replies and earnings, sources and costs, periods, win-back', () => {
  let t: TestApp;
  let admin: TestStaff;
  let op1: TestStaff;
  let op2: TestStaff;
  let siteId: number;
  let otherSiteId: number;
  let f1: number;
  let f2: number;

  beforeAll(async () => {
    t = await createTestApp();
    const db = t.app.deps.db;
    admin = await signedInStaff(t.app, 'admin');
    op1 = await signedInStaff(t.app, 'operator');
    op2 = await signedInStaff(t.app, 'operator');
    const [company] = await db.select({ id: companies.id }).from(companies).limit(1);
    const site = (name: string) =>
      db
        .insert(sites)
        .values({
          domain: `${name}-${process.pid}-${Date.now()}.localhost`,
          name,
          indexTitle: name,
          description: '',
          countries: ['NL'],
          supportEmail: 'support@example.com',
          companyId: company!.id,
        })
        .returning({ id: sites.id });
    siteId = (await site('Numbers'))[0]!.id;
    otherSiteId = (await site('Elsewhere'))[0]!.id;
    const member = async (
      name: string,
      values: { signup: string; activated?: string; firstPurchase?: string; tracking?: TrafficSource },
      fictional = false,
    ) => {
      const [user] = await db
        .insert(users)
        .values({
          siteId,
          email: fictional ? null : `${name}.${siteId}@example.com`,
          status: 'active',
          signupDate: at(values.signup),
          activatedAt: values.activated ? at(values.activated) : null,
          firstPurchaseAt: values.firstPurchase ? at(values.firstPurchase) : null,
          trafficsource: values.tracking ?? null,
        })
        .returning({ id: users.id });
      const [profile] = await db
        .insert(profiles)
        .values({ userId: user!.id, name, birthdate: '1990-01-01', country: 'NL', fictional })
        .returning({ id: profiles.id });
      return { userId: user!.id, profileId: profile!.id };
    };
    const m1 = await member('Mona', {
      signup: '2026-05-04T10:00:00',
      activated: '2026-05-04T11:00:00',
      firstPurchase: '2026-05-05T09:00:00',
      tracking: { network: 'adnet', click_id: 'n-1' },
    });
    const m2 = await member('Nils', {
      signup: '2026-05-05T10:00:00',
      activated: '2026-05-05T12:00:00',
      tracking: { network: 'adnet', click_id: 'n-2' },
    });
    const m3 = await member('Otto', {
      signup: '2026-05-11T10:00:00',
      firstPurchase: '2026-05-12T10:00:00',
      tracking: { network: 'pushnet', click_id: 'n-3' },
    });
    const fp1 = await member('Fenna', { signup: '2026-01-01T00:00:00' }, true);
    const fp2 = await member('Gwen', { signup: '2026-01-01T00:00:00' }, true);
    f1 = fp1.profileId;
    f2 = fp2.profileId;

    const conversation = async (member: number, profile: number) => {
      const [row] = await db
        .insert(conversations)
        .values({
          lowProfileId: Math.min(member, profile),
          highProfileId: Math.max(member, profile),
          startedByProfileId: member,
          createdAt: at('2026-05-06T00:00:00'),
        })
        .returning({ id: conversations.id });
      return row!.id;
    };
    const c1 = await conversation(m1.profileId, f1);
    const c2 = await conversation(m2.profileId, f2);
    const c3 = await conversation(m1.profileId, f2);
    const say = async (conversationId: number, sender: number, when: string, credits = 0) => {
      const [row] = await db
        .insert(messages)
        .values({
          conversationId,
          senderProfileId: sender,
          kind: 'text',
          text: 'x',
          credits,
          createdAt: at(when),
        })
        .returning({ id: messages.id });
      return row!.id;
    };
    const reply = async (
      staffId: number,
      conversationId: number,
      profile: number,
      when: string,
      waited: number,
    ) => {
      const id = await say(conversationId, profile, when);
      await db.insert(staffAudit).values({
        staffId,
        action: 'reply',
        object: `conversation:${conversationId}`,
        detail: { message: id, waited_seconds: waited },
        at: at(when),
      });
      return id;
    };
    // c1: 2 credits before any reply (nobody's), 3 + 2 within 24 h of op1's reply, 5 after 24 h of op2's.
    await say(c1, m1.profileId, '2026-05-06T10:00:00', 2);
    await reply(op1.id, c1, f1, '2026-05-06T10:05:00', 300);
    await say(c1, m1.profileId, '2026-05-06T11:00:00', 3);
    await say(c1, m1.profileId, '2026-05-07T09:00:00', 2);
    await reply(op2.id, c1, f1, '2026-05-07T09:10:00', 600);
    await say(c1, m1.profileId, '2026-05-08T10:00:00', 5);
    // c2: 4 after op1's reply, then an automated message of the profile ends its window: 6 is nobody's.
    await say(c2, m2.profileId, '2026-05-06T12:00:00', 1);
    await reply(op1.id, c2, f2, '2026-05-06T12:20:00', 1200);
    await say(c2, m2.profileId, '2026-05-06T13:00:00', 4);
    await say(c2, f2, '2026-05-06T14:00:00');
    await say(c2, m2.profileId, '2026-05-06T15:00:00', 6);
    const reported = await reply(op1.id, c2, f2, '2026-05-06T16:00:00', 3600);
    // c3: 2 after op1's reply; a reply after the range (and what followed it) does not count.
    await say(c3, m1.profileId, '2026-05-09T10:00:00', 1);
    await reply(op1.id, c3, f2, '2026-05-09T10:30:00', 1800);
    await say(c3, m1.profileId, '2026-05-09T11:00:00', 2);
    await reply(op1.id, c3, f2, '2026-05-20T10:00:00', 60);
    await say(c3, m1.profileId, '2026-05-20T11:00:00', 9);
    await db.insert(reports).values({
      reporterUserId: m2.userId,
      profileId: f2,
      messageId: reported,
      reason: 'offensive',
      createdAt: at('2026-05-06T17:00:00'),
    });

    const [bundle] = await db.select({ id: bundles.id }).from(bundles).limit(1);
    const [winCode, unusedCode] = await db
      .insert(discountCodes)
      .values([
        {
          code: `WB-${siteId}-A`,
          siteId,
          userId: m3.userId,
          valuePercentage: 20,
          createdAt: at('2026-05-10T08:00:00'),
        },
        {
          code: `WB-${siteId}-B`,
          siteId,
          userId: m2.userId,
          valuePercentage: 20,
          createdAt: at('2026-05-11T08:00:00'),
        },
      ])
      .returning({ id: discountCodes.id });
    const order = (
      userId: number,
      amountCents: number,
      settled: string,
      discountCodeId: number | null = null,
    ) => ({
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
      status: 'completed' as const,
      discountCodeId,
      createdAt: at(settled),
      settledAt: at(settled),
    });
    await db
      .insert(orders)
      .values([
        order(m1.userId, 2000, '2026-05-05T09:00:00'),
        order(m1.userId, 500, '2026-05-06T09:00:00'),
        order(m3.userId, 1000, '2026-05-12T10:00:00', winCode!.id),
      ]);
    await db.insert(winbackOffers).values([
      { siteId, userId: m3.userId, round: 1, discountCodeId: winCode!.id, sentAt: at('2026-05-10T08:00:00') },
      {
        siteId,
        userId: m2.userId,
        round: 1,
        discountCodeId: unusedCode!.id,
        sentAt: at('2026-05-11T08:00:00'),
      },
    ]);
    await db.insert(memberActiveDays).values([
      { siteId, day: '2026-05-04', userId: m1.userId },
      { siteId, day: '2026-05-05', userId: m1.userId },
      { siteId, day: '2026-05-06', userId: m1.userId },
      { siteId, day: '2026-05-05', userId: m2.userId },
      { siteId, day: '2026-05-12', userId: m3.userId },
    ]);
    const visit = (network: string, n: number) => ({
      siteId,
      clickId: `v-${network}-${n}`,
      network,
      path: '/',
      firstSeenAt: at(`2026-05-0${4 + n}T08:00:00`),
    });
    await db
      .insert(visits)
      .values([
        visit('adnet', 0),
        visit('adnet', 1),
        visit('adnet', 2),
        visit('adnet', 3),
        visit('pushnet', 4),
        visit('pushnet', 5),
      ]);
    await db.insert(trafficCosts).values([
      // 1,000 over ten days, seven of them in the range: 700.
      {
        siteId,
        network: 'adnet',
        fromDay: '2026-05-01',
        toDay: '2026-05-10',
        currency: 'EUR',
        amountCents: 1000,
        createdAt: new Date(),
      },
      // Another site's spend and a spend for every site: not this site's.
      {
        siteId: otherSiteId,
        network: 'adnet',
        fromDay: '2026-05-04',
        toDay: '2026-05-04',
        currency: 'EUR',
        amountCents: 9000,
        createdAt: new Date(),
      },
      {
        siteId: null,
        network: 'adnet',
        fromDay: '2026-05-04',
        toDay: '2026-05-04',
        currency: 'EUR',
        amountCents: 200,
        createdAt: new Date(),
      },
      // Paid in dollars for euro revenue: a cost, but no return.
      {
        siteId,
        network: 'pushnet',
        fromDay: '2026-05-11',
        toDay: '2026-05-11',
        currency: 'USD',
        amountCents: 500,
        createdAt: new Date(),
      },
    ]);
  });
  afterAll(() => t.close());

  const get = async (url: string, staff: TestStaff = admin) => {
    const answer = await t.app.inject({ url, headers: { cookie: staff.cookie } });
    expect(answer.statusCode, answer.body).toBe(200);
    return answer;
  };
  const numbers = async (more = '') =>
    (await get(`/api/admin/stats.php?from=2026-05-04&to=2026-05-17&site=${siteId}${more}`)).json();

  it('gives each reply the credits spent after it within 24 hours, up to the profile’s next message', async () => {
    const { operators, profiles: perProfile } = await numbers();
    expect(operators).toEqual([
      { staff: { id: op1.id, name: op1.name }, replies: 4, earned_credits: 11 },
      { staff: { id: op2.id, name: op2.name }, replies: 1, earned_credits: 0 },
    ]);
    expect(perProfile).toEqual([
      { profile: { id: f2, name: 'Gwen' }, replies: 3, earned_credits: 6 },
      { profile: { id: f1, name: 'Fenna' }, replies: 2, earned_credits: 5 },
    ]);
  });

  it('operator numbers over a range: replies, conversations, median and p90 wait, earnings, reports; the same attribution', async () => {
    const answer = (
      await get(`/api/admin/operator-stats.php?from=2026-05-04&to=2026-05-17&site=${siteId}`)
    ).json();
    expect(answer).toMatchObject({ from: '2026-05-04', to: '2026-05-17' });
    const row = (id: number) =>
      answer.operators.find((entry: { staff: { id: number } }) => entry.staff.id === id);
    // op1's waits 300, 1,200, 1,800, 3,600 s: median 1,500; p90 at 2.7 of 3 steps: 1,800 + 0.7 × 1,800.
    expect(row(op1.id)).toEqual({
      staff: { id: op1.id, name: op1.name, role: 'operator' },
      replies: 4,
      conversations: 3,
      median_reply_seconds: 1500,
      p90_reply_seconds: 3060,
      earned_credits: 11,
      reports: 1,
    });
    expect(row(op2.id)).toEqual({
      staff: { id: op2.id, name: op2.name, role: 'operator' },
      replies: 1,
      conversations: 1,
      median_reply_seconds: 600,
      p90_reply_seconds: 600,
      earned_credits: 0,
      reports: 0,
    });
    // A wider range takes in the reply of 20 May and the 9 credits after it.
    const wider = (
      await get(`/api/admin/operator-stats.php?from=2026-05-04&to=2026-05-31&staff=${op1.id}`)
    ).json();
    expect(wider.operators).toHaveLength(1);
    expect(wider.operators[0]).toMatchObject({ replies: 5, earned_credits: 20 });
    // Another site's conversations: none of these replies.
    const elsewhere = (
      await get(
        `/api/admin/operator-stats.php?from=2026-05-04&to=2026-05-17&site=${otherSiteId}&staff=${op1.id}`,
      )
    ).json();
    expect(elsewhere.operators[0]).toMatchObject({
      replies: 0,
      earned_credits: 0,
      median_reply_seconds: null,
    });
  });

  it('an operator sees their own numbers only, whatever staff they ask for; the CSV holds the same rows', async () => {
    const own = (
      await get(`/api/admin/operator-stats.php?from=2026-05-04&to=2026-05-17&staff=${op1.id}`, op2)
    ).json();
    expect(own.operators).toEqual([
      expect.objectContaining({ staff: expect.objectContaining({ id: op2.id }), replies: 1 }),
    ]);
    const csv = await get(
      `/api/admin/operator-stats-export.php?from=2026-05-04&to=2026-05-17&staff=${op1.id}`,
    );
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.body.trim().split(/\r?\n/)).toEqual([
      'staff_id,name,role,replies,conversations,median_reply_seconds,p90_reply_seconds,earned_credits,reports',
      `${op1.id},${op1.name},operator,4,3,1500,3060,11,1`,
    ]);
    const bad = await t.app.inject({
      url: '/api/admin/operator-stats.php?from=2026-05-17&to=2026-05-04',
      headers: { cookie: admin.cookie },
    });
    expect(bad.statusCode).toBe(422);
  });

  it('the funnel per source: visits → signups → activations → paying → revenue, per signup, and the return on its cost', async () => {
    const { trafficsources } = await numbers();
    expect(trafficsources).toEqual([
      {
        network: 'adnet',
        value: 'adnet',
        visits: 4,
        signups: 2,
        activations: 2,
        buyers: 1,
        revenue: { EUR: 2500 },
        revenue_per_signup_cents: { EUR: 1250 },
        cost_cents: { EUR: 700 },
        return_ratio: 3.57,
      },
      {
        network: 'pushnet',
        value: 'pushnet',
        visits: 2,
        signups: 1,
        activations: 0,
        buyers: 1,
        revenue: { EUR: 1000 },
        revenue_per_signup_cents: { EUR: 1000 },
        cost_cents: { USD: 500 },
        return_ratio: null,
      },
    ]);
    // Over every site the spend for every site counts too (700 + 200).
    const range = {
      from: '2026-05-04',
      to: '2026-05-17',
      start: at('2026-05-04T00:00:00'),
      end: at('2026-05-18T00:00:00'),
      siteIds: [siteId],
    };
    expect(await repo.costsInRange(t.app.deps.db, range, true)).toEqual(
      expect.arrayContaining([{ network: 'adnet', currency: 'EUR', cents: 900 }]),
    );
  });

  it('totals per week and month: paying and active members counted once per period, ARPU and ARPPU', async () => {
    const weeks = await numbers('&granularity=week');
    expect(weeks.periods).toEqual([
      {
        period: '2026-05-04',
        revenue_cents: { EUR: 2500 },
        refunds_cents: {},
        chargebacks_cents: {},
        orders: 2,
        paying_members: 1,
        active_members: 2,
        arpu_cents: { EUR: 1250 },
        arppu_cents: { EUR: 2500 },
      },
      {
        period: '2026-05-11',
        revenue_cents: { EUR: 1000 },
        refunds_cents: {},
        chargebacks_cents: {},
        orders: 1,
        paying_members: 1,
        active_members: 1,
        arpu_cents: { EUR: 1000 },
        arppu_cents: { EUR: 1000 },
      },
    ]);
    const months = await numbers('&granularity=month');
    expect(months.periods).toEqual([
      expect.objectContaining({
        period: '2026-05-04',
        orders: 3,
        paying_members: 2,
        active_members: 3,
        arpu_cents: { EUR: 1167 },
        arppu_cents: { EUR: 1750 },
      }),
    ]);
    const days = await numbers();
    expect(days.periods).toHaveLength(14);
    expect(days.periods[1]).toMatchObject({
      period: '2026-05-05',
      orders: 1,
      paying_members: 1,
      active_members: 2,
    });
  });

  it('win-back: codes sent, the orders made with them and what they kept', async () => {
    expect((await numbers()).winback).toEqual({ issued: 2, redeemed: 1, revenue_cents: { EUR: 1000 } });
  });

  it('admins enter and remove costs (audited); bad input gets field errors; others get 403', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/admin/traffic-costs.php',
      headers: { cookie: admin.cookie },
      payload: {
        site: siteId,
        network: 'native',
        from: '2026-05-01',
        to: '2026-05-31',
        currency: 'EUR',
        amount_cents: 3100,
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const { cost } = created.json();
    expect(cost).toMatchObject({ site: siteId, network: 'native', amount_cents: 3100 });
    const listed = (await get(`/api/admin/traffic-costs.php?site=${siteId}`)).json();
    expect(listed.costs.map((row: { network: string }) => row.network)).toContain('native');
    const bad = await t.app.inject({
      method: 'POST',
      url: '/api/admin/traffic-costs.php',
      headers: { cookie: admin.cookie },
      payload: { network: '', from: '2026-05-31', to: '2026-05-01', currency: 'euro', amount_cents: -1 },
    });
    expect(bad.statusCode).toBe(422);
    expect(Object.keys(bad.json().fields ?? {})).toEqual(
      expect.arrayContaining(['network', 'currency', 'amount_cents']),
    );
    const forbidden = await t.app.inject({
      method: 'DELETE',
      url: '/api/admin/traffic-costs.php',
      headers: { cookie: op1.cookie },
      payload: { id: cost.id },
    });
    expect(forbidden.statusCode).toBe(403);
    const removed = await t.app.inject({
      method: 'DELETE',
      url: '/api/admin/traffic-costs.php',
      headers: { cookie: admin.cookie },
      payload: { id: cost.id },
    });
    expect(removed.statusCode).toBe(200);
    const again = await t.app.inject({
      method: 'DELETE',
      url: '/api/admin/traffic-costs.php',
      headers: { cookie: admin.cookie },
      payload: { id: cost.id },
    });
    expect(again.statusCode).toBe(404);
  });

  it('downloads the periods, cohorts, operators and profiles as CSV', async () => {
    const csv = async (table: string) =>
      (
        await get(
          `/api/admin/stats-export.php?from=2026-05-04&to=2026-05-17&site=${siteId}&granularity=week&table=${table}`,
        )
      ).body
        .trim()
        .split(/\r?\n/);
    expect(await csv('periods')).toEqual([
      'week,orders,paying_members,active_members,revenue_EUR,refunds_EUR,chargebacks_EUR,arpu_EUR,arppu_EUR',
      '2026-05-04,2,1,2,25.00,0.00,0.00,12.50,25.00',
      '2026-05-11,1,1,1,10.00,0.00,0.00,10.00,10.00',
    ]);
    expect(await csv('operators')).toEqual([
      'staff_id,name,replies,earned_credits',
      `${op1.id},${op1.name},4,11`,
      `${op2.id},${op2.name},1,0`,
    ]);
    expect(await csv('profiles')).toEqual([
      'profile_id,name,replies,earned_credits',
      `${f2},Gwen,3,6`,
      `${f1},Fenna,2,5`,
    ]);
    expect((await csv('cohorts'))[0]).toBe(
      'week,signups,paid_within_1d,paid_within_7d,paid_within_30d,median_hours_to_first_purchase,revenue_per_member_7d_EUR,revenue_per_member_30d_EUR,revenue_per_member_90d_EUR',
    );
  });
});
