import { desc, eq, type SQL, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { StatsBreakdown } from '#contract/admin-stats.ts';
import type { Executor } from '#server/db/client.ts';
import { trafficCosts } from '#server/db/schema/tracking.ts';

/**
 * The back office dashboard's queries. Every one reads a range of UTC days of the chosen sites
 * through an index that starts with the site (or the day): see bench/dashboard.ts for their plans.
 */

export type StatsRange = { start: Date; end: Date; from: string; to: string; siteIds: number[] };

const count = z.coerce.number().int();
const dayCounts = z.array(z.object({ day: z.string(), n: count }));

export async function rows<T extends z.ZodType>(db: Executor, schema: T, query: SQL): Promise<z.infer<T>> {
  // pg and PGlite both answer { rows }; the schema checks what came back.
  const { rows: found } = z.object({ rows: z.array(z.unknown()) }).parse(await db.execute(query));
  return schema.parse(found);
}

const siteList = (range: { siteIds: readonly number[] }) =>
  sql`(${sql.join(
    range.siteIds.map((id) => sql`${id}`),
    sql`, `,
  )})`;
const realMember = sql`not exists (select 1 from profiles p where p.user_id = u.id and p.fictional)`;
const utcDay = (column: SQL) => sql`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD')`;

// Days are grouped as dates and formatted once per group: formatting every row costs more than the count.

/** Real members per day of one of the users' timestamps (signup, first activation, first paid order). */
export async function membersPerDay(
  db: Executor,
  range: StatsRange,
  column: 'signup_date' | 'activated_at' | 'first_purchase_at',
) {
  const at = sql.raw(`u.${column}`);
  return rows(
    db,
    dayCounts,
    sql`select to_char(x.day, 'YYYY-MM-DD') as day, x.n from (
        select (${at} at time zone 'UTC')::date as day, count(*) as n from users u
        where u.site_id in ${siteList(range)} and ${at} >= ${range.start} and ${at} < ${range.end} and ${realMember}
        group by 1
      ) x`,
  );
}

/** Paid orders (not refunded) and their amounts per day and currency. */
export async function ordersPerDay(db: Executor, range: StatsRange) {
  return rows(
    db,
    z.array(z.object({ day: z.string(), currency: z.string(), n: count, cents: count })),
    sql`select to_char(x.day, 'YYYY-MM-DD') as day, x.currency, x.n, x.cents from (
        select (o.settled_at at time zone 'UTC')::date as day, o.currency, count(*) as n, sum(o.amount_cents) as cents
        from orders o
        where o.site_id in ${siteList(range)} and o.status = 'completed'
          and o.settled_at >= ${range.start} and o.settled_at < ${range.end}
        group by 1, 2
      ) x`,
  );
}

/**
 * What partly refunded orders kept, per day they were paid and currency: the amount less the part
 * paid back (a whole refund or a chargeback keeps nothing). Through the index of reversed orders.
 */
export async function partlyRefundedPerDay(db: Executor, range: StatsRange) {
  return rows(
    db,
    z.array(z.object({ day: z.string(), currency: z.string(), n: count, cents: count })),
    sql`select to_char(x.day, 'YYYY-MM-DD') as day, x.currency, x.n, x.cents from (
        select (o.settled_at at time zone 'UTC')::date as day, o.currency, count(*) as n,
          sum(o.amount_cents - o.refund_cents) as cents
        from orders o
        where o.site_id in ${siteList(range)} and o.status = 'refunded' and o.refund_cents is not null
          and o.charged_back_at is null and o.settled_at >= ${range.start} and o.settled_at < ${range.end}
        group by 1, 2
      ) x`,
  );
}

/**
 * Refunds and chargebacks per day and currency, each on the day it happened: a refund on the day
 * staff asked for it (one made in the provider's dashboard has no such day and counts on the day
 * of the payment), a chargeback on the day reported, for what no refund paid back already.
 */
export async function reversalsPerDay(db: Executor, range: StatsRange) {
  return rows(
    db,
    z.array(
      z.object({
        day: z.string(),
        kind: z.enum(['refund', 'chargeback']),
        currency: z.string(),
        cents: count,
      }),
    ),
    sql`select to_char(x.day, 'YYYY-MM-DD') as day, x.kind, x.currency, sum(x.cents) as cents from (
        select (coalesce(o.refund_requested_at, o.settled_at) at time zone 'UTC')::date as day, 'refund' as kind,
          o.currency, coalesce(o.refund_cents, o.amount_cents) as cents
        from orders o
        where o.site_id in ${siteList(range)} and o.status = 'refunded'
          and (o.refund_requested_at is not null or o.charged_back_at is null)
          and coalesce(o.refund_requested_at, o.settled_at) >= ${range.start}
          and coalesce(o.refund_requested_at, o.settled_at) < ${range.end}
        union all
        select (o.charged_back_at at time zone 'UTC')::date, 'chargeback', o.currency,
          o.amount_cents - case when o.refund_requested_at is not null then coalesce(o.refund_cents, o.amount_cents) else 0 end
        from orders o
        where o.site_id in ${siteList(range)} and o.status = 'refunded'
          and o.charged_back_at >= ${range.start} and o.charged_back_at < ${range.end}
      ) x
      group by x.day, x.kind, x.currency`,
  );
}

/** Members with a paid order (kept, at least in part) in the range. */
export async function payingMembers(db: Executor, range: StatsRange): Promise<number> {
  const [found] = await rows(
    db,
    z.array(z.object({ paying: count })),
    sql`select count(distinct o.user_id) as paying from orders o
      where o.site_id in ${siteList(range)} and o.settled_at >= ${range.start} and o.settled_at < ${range.end}
        and (o.status = 'completed'
          or (o.status = 'refunded' and o.refund_cents is not null and o.charged_back_at is null))`,
  );
  return found?.paying ?? 0;
}

/** Spans of days, first to last (UTC dates, both included). */
export type DaySpan = { first: string; last: string };

const spanRows = z.array(z.object({ first: z.string(), last: z.string(), n: count }));
/** UTC dates (YYYY-MM-DD, checked by the contract) as one date[] parameter. */
const dates = (days: readonly string[]) => sql`${`{${days.join(',')}}`}::date[]`;
const spansOf = (spans: readonly DaySpan[]) =>
  sql`unnest(${dates(spans.map((span) => span.first))}, ${dates(spans.map((span) => span.last))}) as p(first_day, last_day)`;

/**
 * Stores the members active in each span of closed days for each of the sites that has no row for
 * it yet (stats_active_spans; one small sort per span and site through the primary key). A row
 * another request stored first stays.
 */
export async function fillActiveSpans(db: Executor, siteIds: number[], spans: readonly DaySpan[]) {
  if (spans.length === 0 || siteIds.length === 0) return;
  // The planner guesses 1,000 rows for unnest, and the guessed cost switches on JIT compilation,
  // which took longer than the scans (~135 ms of ~415 ms a year per week, bench run 2026-12-03).
  await db.transaction(async (tx) => {
    await tx.execute(sql`set local jit = off`);
    await tx.execute(sql`with wanted as materialized (
        select s.id as site_id, p.first_day, p.last_day from sites s cross join ${spansOf(spans)}
        where s.id in ${siteList({ siteIds })}
          and not exists (select 1 from stats_active_spans x
            where x.site_id = s.id and x.first_day = p.first_day and x.last_day = p.last_day)
      )
      insert into stats_active_spans (site_id, first_day, last_day, members)
      select w.site_id, w.first_day, w.last_day, a.n from wanted w
      cross join lateral (
        select count(distinct d.user_id) as n from member_active_days d
        where d.site_id = w.site_id and d.day >= w.first_day and d.day <= w.last_day
      ) a
      on conflict do nothing`);
  });
}

/** The stored members active in each span, summed over the sites (a member belongs to one site). */
export async function storedActiveSpans(db: Executor, siteIds: number[], spans: readonly DaySpan[]) {
  if (spans.length === 0 || siteIds.length === 0) return [];
  return rows(
    db,
    spanRows,
    sql`select to_char(x.first_day, 'YYYY-MM-DD') as first, to_char(x.last_day, 'YYYY-MM-DD') as last,
        sum(x.members) as n
      from stats_active_spans x join (select distinct first_day, last_day from ${spansOf(spans)}) p
        on x.first_day = p.first_day and x.last_day = p.last_day
      where x.site_id in ${siteList({ siteIds })}
      group by x.first_day, x.last_day`,
  );
}

/**
 * Members active on a span's open days (from `openFrom` on: not closed yet) who were not active on
 * its days before them: what the span's stored count of its closed days lacks. The earlier day is
 * looked up per member (a subquery with `limit 1`, which the planner keeps as one index probe per
 * member): as `not exists` it became a hash anti-join over every active day of every member, ~400 ms
 * a call over a year of 100,000 members (bench/dashboard.ts, 2026-12-04).
 */
export async function openActiveSpans(
  db: Executor,
  siteIds: number[],
  spans: readonly (DaySpan & { openFrom: string })[],
) {
  if (spans.length === 0 || siteIds.length === 0) return [];
  // Without JIT: the planner's guess of the rows switched it on, ~120 ms of compiling for a
  // statement that runs in a few (bench run 2026-12-04).
  return db.transaction(async (tx) => {
    await tx.execute(sql`set local jit = off`);
    return openActiveQuery(tx, siteIds, spans);
  });
}

/** The statement of openActiveSpans. */
export async function openActiveQuery(
  db: Executor,
  siteIds: number[],
  spans: readonly (DaySpan & { openFrom: string })[],
) {
  return rows(
    db,
    spanRows,
    sql`select to_char(p.first_day, 'YYYY-MM-DD') as first, to_char(p.last_day, 'YYYY-MM-DD') as last,
        count(distinct t.user_id) as n
      from unnest(${dates(spans.map((span) => span.first))}, ${dates(spans.map((span) => span.openFrom))},
          ${dates(spans.map((span) => span.last))}) as p(first_day, open_from, last_day)
      join member_active_days t on t.site_id in ${siteList({ siteIds })}
        and t.day >= p.open_from and t.day <= p.last_day
      where (select 1 from member_active_days d
        where d.user_id = t.user_id and d.day >= p.first_day and d.day < p.open_from limit 1) is null
      group by p.first_day, p.last_day`,
  );
}

/**
 * The cohorts of the range, by signup week (Monday, UTC): how many paid and how fast. Grouped by
 * the week's timestamp and formatted per group, as the per-day counts are.
 */
export async function cohortMembers(db: Executor, range: StatsRange) {
  const hours = sql`extract(epoch from (u.first_purchase_at - u.signup_date)) / 3600`;
  return rows(
    db,
    z.array(
      z.object({
        week: z.string(),
        signups: count,
        paid_1d: count,
        paid_7d: count,
        paid_30d: count,
        median_hours: z.coerce.number().nullable(),
      }),
    ),
    sql`select to_char(x.week, 'YYYY-MM-DD') as week, x.signups, x.paid_1d, x.paid_7d, x.paid_30d, x.median_hours
      from (
        select date_trunc('week', u.signup_date at time zone 'UTC') as week,
          count(*) as signups,
          count(*) filter (where u.first_purchase_at < u.signup_date + interval '1 day') as paid_1d,
          count(*) filter (where u.first_purchase_at < u.signup_date + interval '7 days') as paid_7d,
          count(*) filter (where u.first_purchase_at < u.signup_date + interval '30 days') as paid_30d,
          percentile_cont(0.5) within group (order by ${hours}) filter (where u.first_purchase_at is not null) as median_hours
        from users u
        where u.site_id in ${siteList(range)} and u.signup_date >= ${range.start} and u.signup_date < ${range.end}
          and ${realMember}
        group by 1
      ) x`,
  );
}

/** What each cohort's members paid within 7, 30 and 90 days of signing up, per currency (kept amounts). */
export async function cohortRevenue(db: Executor, range: StatsRange) {
  const kept = sql`case when o.status = 'completed' then o.amount_cents
    when o.status = 'refunded' and o.refund_cents is not null and o.charged_back_at is null
      then o.amount_cents - o.refund_cents
    else 0 end`;
  const within = (days: number) =>
    sql`coalesce(sum(${kept}) filter (where o.settled_at < u.signup_date + ${sql.raw(`interval '${days} days'`)}), 0)`;
  return rows(
    db,
    z.array(z.object({ week: z.string(), currency: z.string(), d7: count, d30: count, d90: count })),
    sql`select to_char(x.week, 'YYYY-MM-DD') as week, x.currency, x.d7, x.d30, x.d90 from (
        select date_trunc('week', u.signup_date at time zone 'UTC') as week, o.currency,
          ${within(7)} as d7, ${within(30)} as d30, ${within(90)} as d90
        from users u join orders o on o.user_id = u.id and o.settled_at is not null
        where u.site_id in ${siteList(range)} and u.signup_date >= ${range.start} and u.signup_date < ${range.end}
          and u.first_purchase_at is not null and ${realMember}
        group by 1, 2
      ) x`,
  );
}

/** How far back a reply's waiting time is looked for (a member who waited longer counts from here). */
export const replyLookbackDays = 7;

const messageDays = z.array(
  z.object({
    day: z.string(),
    messages_in: count,
    replies_out: count,
    median: z.coerce.number().nullable(),
  }),
);

/**
 * The messages of members to fictional profiles in [lookback, end) of the range's sites, each with
 * its member's site, whether the profile sent it and, for a reply, its wait: the time since the
 * first member message of its run. A reply ends a run of member messages: counting the profile's
 * messages before each message (a window) numbers the runs; a reply's wait starts at the first
 * member message of its run (a second window, no join). A profile message with no member message
 * before it in its run waits for nobody (null).
 */
function waitsOf(range: StatsRange, lookback: Date) {
  // The range's messages first, by their time (messages_created_idx), then their conversations:
  // misjudging how many pairs join a real member to a fictional profile, the planner went through
  // every conversation's messages instead, ~400 ms for an open day over a year of messages
  // (bench/dashboard.ts, 2026-12-04; ~100 ms this way).
  return sql`recent as materialized (
        select m.id, m.conversation_id, m.sender_profile_id, m.created_at from messages m
        where m.created_at >= ${lookback} and m.created_at < ${range.end}
      ), m as (
        select m.id, m.conversation_id, m.created_at, mu.site_id,
          m.sender_profile_id = case when lp.fictional then lp.id else hp.id end as by_profile
        from recent m
        join conversations c on c.id = m.conversation_id
        join profiles lp on lp.id = c.low_profile_id
        join profiles hp on hp.id = c.high_profile_id
        join users mu on mu.id = case when lp.fictional then hp.user_id else lp.user_id end
        where lp.fictional <> hp.fictional and mu.site_id in ${siteList(range)}
      ), g as (
        select m.*, count(*) filter (where by_profile) over (
          partition by conversation_id order by id rows between unbounded preceding and 1 preceding
        ) as run
        from m
      ), w as (
        select g.*, extract(epoch from g.created_at - min(created_at) filter (where not by_profile)
          over (partition by conversation_id, run))::float8 as wait
        from g
      )`;
}

const lookbackOf = (range: StatsRange) => new Date(range.start.getTime() - replyLookbackDays * 86_400_000);

/**
 * Messages in, replies out and the median reply time per day, computed from the messages (the days
 * not yet closed: bench/dashboard.ts explains it). The windows sort every message of the range: in
 * memory, not in temporary files (this query only).
 */
export async function messagesPerDay(db: Executor, range: StatsRange) {
  return db.transaction(async (tx) => {
    await tx.execute(sql`set local work_mem = '64MB'`);
    return messagesQuery(tx, range);
  });
}

/** The statement of messagesPerDay. */
export async function messagesQuery(db: Executor, range: StatsRange) {
  return rows(
    db,
    messageDays,
    sql`with ${waitsOf(range, lookbackOf(range))}
      select ${utcDay(sql`w.created_at`)} as day,
        count(*) filter (where not w.by_profile) as messages_in,
        count(*) filter (where w.by_profile) as replies_out,
        round(percentile_cont(0.5) within group (order by w.wait) filter (where w.by_profile)) as median
      from w
      where w.created_at >= ${range.start}
      group by 1`,
  );
}

/**
 * The range's sites that miss a stats_site_days row on some day of the range (closed days: the
 * caller's rule), with the first and last such day.
 */
export async function missingSiteDays(db: Executor, range: StatsRange) {
  return rows(
    db,
    z.array(z.object({ site_id: count, first: z.string(), last: z.string() })),
    sql`select s.id as site_id, to_char(min(d.day), 'YYYY-MM-DD') as first, to_char(max(d.day), 'YYYY-MM-DD') as last
      from sites s
      cross join generate_series(${range.from}::date, ${range.to}::date, interval '1 day') d(day)
      where s.id in ${siteList(range)}
        and not exists (select 1 from stats_site_days x where x.site_id = s.id and x.day = d.day::date)
      group by s.id`,
  );
}

/**
 * Stores a row per site and day of the range (closed days only: the caller's rule): the figures of
 * messagesPerDay per site, the sorted waits and the active members. A row already there (another
 * request filled it) stays.
 */
export async function fillSiteDays(db: Executor, range: StatsRange) {
  await db.transaction(async (tx) => {
    await tx.execute(sql`set local work_mem = '64MB'`);
    await tx.execute(sql`with ${waitsOf(range, lookbackOf(range))}, c as (
        select w.site_id, (w.created_at at time zone 'UTC')::date as day,
          count(*) filter (where not w.by_profile) as messages_in,
          count(*) filter (where w.by_profile) as replies_out,
          percentile_cont(0.5) within group (order by w.wait) filter (where w.by_profile) as median,
          array_agg(w.wait order by w.wait) filter (where w.by_profile and w.wait is not null) as waits
        from w
        where w.created_at >= ${range.start}
        group by 1, 2
      ), a as (
        select d.site_id, d.day, count(*) as n from member_active_days d
        where d.site_id in ${siteList(range)} and d.day >= ${range.from}::date and d.day <= ${range.to}::date
        group by 1, 2
      )
      insert into stats_site_days (site_id, day, messages_in, replies_out, median, waits, active_members)
      select s.id, d.day::date, coalesce(c.messages_in, 0), coalesce(c.replies_out, 0), c.median,
        coalesce(c.waits, '{}'), coalesce(a.n, 0)
      from sites s
      cross join generate_series(${range.from}::date, ${range.to}::date, interval '1 day') d(day)
      left join c on c.site_id = s.id and c.day = d.day::date
      left join a on a.site_id = s.id and a.day = d.day::date
      where s.id in ${siteList(range)}
      on conflict do nothing`);
  });
}

/**
 * The stored days of the range. One site with replies on a day: its own median; several: the median
 * of their waits together (what messagesPerDay would say over all of them).
 */
export async function storedSiteDays(db: Executor, range: StatsRange) {
  return rows(
    db,
    z.array(
      z.object({
        day: z.string(),
        messages_in: count,
        replies_out: count,
        median: z.coerce.number().nullable(),
        active_members: count,
      }),
    ),
    sql`select to_char(d.day, 'YYYY-MM-DD') as day, sum(d.messages_in) as messages_in,
        sum(d.replies_out) as replies_out, sum(d.active_members) as active_members,
        round(case when count(d.median) <= 1 then max(d.median) else (
          select percentile_cont(0.5) within group (order by t.wait)
          from stats_site_days x cross join unnest(x.waits) t(wait)
          where x.day = d.day and x.site_id in ${siteList(range)}
        ) end) as median
      from stats_site_days d
      where d.site_id in ${siteList(range)} and d.day >= ${range.from}::date and d.day <= ${range.to}::date
      group by d.day`,
  );
}

export async function activeMembersPerDay(db: Executor, range: StatsRange) {
  return rows(
    db,
    dayCounts,
    sql`select to_char(d.day, 'YYYY-MM-DD') as day, count(*) as n from member_active_days d
      where d.site_id in ${siteList(range)} and d.day >= ${range.from}::date and d.day <= ${range.to}::date
      group by d.day`,
  );
}

// ---- traffic sources

const sourceRows = z.array(z.object({ network: z.string(), value: z.string(), n: count }));

function memberKey(breakdown: StatsBreakdown) {
  return sql`coalesce(u.trafficsource->>${breakdown}, '')`;
}

export async function visitsBySource(db: Executor, range: StatsRange, breakdown: StatsBreakdown) {
  const value = sql.raw(`coalesce(v.${breakdown}, '')`);
  return rows(
    db,
    sourceRows,
    sql`select coalesce(v.network, '') as network, ${value} as value, count(*) as n from visits v
      where v.site_id in ${siteList(range)} and v.first_seen_at >= ${range.start} and v.first_seen_at < ${range.end}
      group by 1, 2`,
  );
}

/**
 * Real members per source who signed up, first activated and first paid in the range, in one read
 * of the members: three reads (one per moment) were ~100 ms of a year's call at 100,000 members.
 */
export async function membersBySource(db: Executor, range: StatsRange, breakdown: StatsBreakdown) {
  const within = (column: 'signup_date' | 'activated_at' | 'first_purchase_at') => {
    const at = sql.raw(`u.${column}`);
    return sql`(${at} >= ${range.start} and ${at} < ${range.end})`;
  };
  return rows(
    db,
    z.array(
      z.object({ network: z.string(), value: z.string(), signups: count, activations: count, buyers: count }),
    ),
    sql`select coalesce(u.trafficsource->>'network', '') as network, ${memberKey(breakdown)} as value,
        count(*) filter (where ${within('signup_date')}) as signups,
        count(*) filter (where ${within('activated_at')}) as activations,
        count(*) filter (where ${within('first_purchase_at')}) as buyers
      from users u
      where u.site_id in ${siteList(range)} and ${realMember}
        and (${within('signup_date')} or ${within('activated_at')} or ${within('first_purchase_at')})
      group by 1, 2`,
  );
}

export async function revenueBySource(db: Executor, range: StatsRange, breakdown: StatsBreakdown) {
  return rows(
    db,
    z.array(z.object({ network: z.string(), value: z.string(), currency: z.string(), cents: count })),
    sql`select coalesce(u.trafficsource->>'network', '') as network, ${memberKey(breakdown)} as value,
        o.currency, sum(o.amount_cents) as cents
      from orders o join users u on u.id = o.user_id
      where o.site_id in ${siteList(range)} and o.status = 'completed'
        and o.settled_at >= ${range.start} and o.settled_at < ${range.end}
      group by 1, 2, 3`,
  );
}

export async function allSiteIds(db: Executor): Promise<number[]> {
  const result = await rows(db, z.array(z.object({ id: count })), sql`select id from sites order by id`);
  return result.map((row) => row.id);
}

// ---- periods, win-back, costs

/** Paid orders (kept) and their paying members per week or month (its first day). */
export async function ordersPerPeriod(db: Executor, range: StatsRange, unit: 'week' | 'month') {
  const period = sql`date_trunc(${unit}, o.settled_at at time zone 'UTC')`;
  return rows(
    db,
    z.array(z.object({ period: z.string(), paying: count })),
    sql`select to_char(x.period, 'YYYY-MM-DD') as period, x.paying from (
        select ${period} as period, count(distinct o.user_id) as paying
        from orders o
        where o.site_id in ${siteList(range)} and o.settled_at >= ${range.start} and o.settled_at < ${range.end}
          and (o.status = 'completed'
            or (o.status = 'refunded' and o.refund_cents is not null and o.charged_back_at is null))
        group by 1
      ) x`,
  );
}

/** Members with a paid order per day. */
export async function payingPerDay(db: Executor, range: StatsRange) {
  return rows(
    db,
    z.array(z.object({ period: z.string(), paying: count })),
    sql`select to_char(x.day, 'YYYY-MM-DD') as period, x.paying from (
        select (o.settled_at at time zone 'UTC')::date as day, count(distinct o.user_id) as paying
        from orders o
        where o.site_id in ${siteList(range)} and o.settled_at >= ${range.start} and o.settled_at < ${range.end}
          and (o.status = 'completed'
            or (o.status = 'refunded' and o.refund_cents is not null and o.charged_back_at is null))
        group by 1
      ) x`,
  );
}

/** Win-back codes sent in the range, and the paid orders (kept) made with them, per currency. */
export async function winbackResults(db: Executor, range: StatsRange) {
  const [issued] = await rows(
    db,
    z.array(z.object({ n: count })),
    sql`select count(*) as n from winback_offers w
      where w.site_id in ${siteList(range)} and w.sent_at >= ${range.start} and w.sent_at < ${range.end}`,
  );
  const redeemed = await rows(
    db,
    z.array(z.object({ currency: z.string(), n: count, cents: count })),
    sql`select o.currency, count(*) as n, sum(case when o.status = 'completed' then o.amount_cents
        else o.amount_cents - o.refund_cents end) as cents
      from winback_offers w
      join orders o on o.discount_code_id = w.discount_code_id and o.user_id = w.user_id
      where w.site_id in ${siteList(range)} and w.sent_at >= ${range.start} and w.sent_at < ${range.end}
        and (o.status = 'completed'
          or (o.status = 'refunded' and o.refund_cents is not null and o.charged_back_at is null))
      group by 1`,
  );
  return { issued: issued?.n ?? 0, redeemed };
}

/**
 * The part of each entered cost inside the range, per network and currency: the amount spread evenly
 * over its days, times the days it shares with the range. A cost of every site (no site) counts
 * only when the range covers every site: it cannot be told which site it bought.
 */
export async function costsInRange(db: Executor, range: StatsRange, everySite: boolean) {
  return rows(
    db,
    z.array(z.object({ network: z.string(), currency: z.string(), cents: count })),
    sql`select c.network, c.currency, round(sum(c.amount_cents::numeric
        * (least(c.to_day, ${range.to}::date) - greatest(c.from_day, ${range.from}::date) + 1)
        / (c.to_day - c.from_day + 1))) as cents
      from traffic_costs c
      where c.from_day <= ${range.to}::date and c.to_day >= ${range.from}::date
        and (${everySite ? sql`c.site_id is null or ` : sql``}c.site_id in ${siteList(range)})
      group by 1, 2`,
  );
}

export async function listCosts(db: Executor, siteId: number | undefined) {
  return db
    .select()
    .from(trafficCosts)
    .where(siteId === undefined ? undefined : eq(trafficCosts.siteId, siteId))
    .orderBy(desc(trafficCosts.fromDay), desc(trafficCosts.id));
}

export async function insertCost(db: Executor, values: typeof trafficCosts.$inferInsert) {
  const [row] = await db.insert(trafficCosts).values(values).returning();
  return row!;
}

export async function deleteCost(db: Executor, id: number) {
  const deleted = await db
    .delete(trafficCosts)
    .where(eq(trafficCosts.id, id))
    .returning({ id: trafficCosts.id });
  return deleted.length > 0;
}
