import { type SQL, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { StatsBreakdown } from '#contract/admin-stats.ts';
import type { Executor } from '#server/db/client.ts';

/**
 * The dashboard's queries (issue 17). Every one reads a range of UTC days of the chosen sites
 * through an index that starts with the site (or the day): see bench/dashboard.ts for their plans.
 */

export type StatsRange = { start: Date; end: Date; from: string; to: string; siteIds: number[] };

const count = z.coerce.number().int();
const dayCounts = z.array(z.object({ day: z.string(), n: count }));

async function rows<T extends z.ZodType>(db: Executor, schema: T, query: SQL): Promise<z.infer<T>> {
  // pg and PGlite both answer { rows }; the schema checks what came back.
  const { rows: found } = z.object({ rows: z.array(z.unknown()) }).parse(await db.execute(query));
  return schema.parse(found);
}

const siteList = (range: StatsRange) =>
  sql`(${sql.join(
    range.siteIds.map((id) => sql`${id}`),
    sql`, `,
  )})`;
const realMember = sql`not exists (select 1 from profiles p where p.user_id = u.id and p.fictional)`;
const utcDay = (column: SQL) => sql`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD')`;

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
    sql`select ${utcDay(at)} as day, count(*) as n from users u
      where u.site_id in ${siteList(range)} and ${at} >= ${range.start} and ${at} < ${range.end} and ${realMember}
      group by 1`,
  );
}

/** Paid orders (not refunded) and their amounts per day and currency. */
export async function ordersPerDay(db: Executor, range: StatsRange) {
  return rows(
    db,
    z.array(z.object({ day: z.string(), currency: z.string(), n: count, cents: count })),
    sql`select ${utcDay(sql`o.settled_at`)} as day, o.currency, count(*) as n, sum(o.amount_cents) as cents
      from orders o
      where o.site_id in ${siteList(range)} and o.status = 'completed'
        and o.settled_at >= ${range.start} and o.settled_at < ${range.end}
      group by 1, 2`,
  );
}

/** How far back a reply's waiting time is looked for (a member who waited longer counts from here). */
export const replyLookbackDays = 7;

/**
 * Messages of members to fictional profiles, replies of the profiles, and the median time from the
 * member's first unanswered message to the reply, per day. A reply ends a run of member messages:
 * counting the profile's messages before each message (a window) numbers the runs; a reply's wait
 * starts at the first member message of its run (a second window, no join).
 */
export async function messagesPerDay(db: Executor, range: StatsRange) {
  const lookback = new Date(range.start.getTime() - replyLookbackDays * 86_400_000);
  // The windows sort every message of the range: in memory, not in temporary files (this query only).
  return db.transaction(async (tx) => {
    await tx.execute(sql`set local work_mem = '64MB'`);
    return messagesQuery(tx, range, lookback);
  });
}

/** The statement of messagesPerDay (bench/dashboard.ts explains it). */
export async function messagesQuery(db: Executor, range: StatsRange, lookback: Date) {
  return rows(
    db,
    z.array(
      z.object({
        day: z.string(),
        messages_in: count,
        replies_out: count,
        median: z.coerce.number().nullable(),
      }),
    ),
    sql`with m as (
        select m.id, m.conversation_id, m.created_at,
          m.sender_profile_id = case when lp.fictional then lp.id else hp.id end as by_profile
        from messages m
        join conversations c on c.id = m.conversation_id
        join profiles lp on lp.id = c.low_profile_id
        join profiles hp on hp.id = c.high_profile_id
        join users mu on mu.id = case when lp.fictional then hp.user_id else lp.user_id end
        where m.created_at >= ${lookback} and m.created_at < ${range.end}
          and lp.fictional <> hp.fictional and mu.site_id in ${siteList(range)}
      ), g as (
        select m.*, count(*) filter (where by_profile) over (
          partition by conversation_id order by id rows between unbounded preceding and 1 preceding
        ) as run
        from m
      ), w as (
        select g.*, min(created_at) filter (where not by_profile) over (partition by conversation_id, run) as since
        from g
      )
      select ${utcDay(sql`w.created_at`)} as day,
        count(*) filter (where not w.by_profile) as messages_in,
        count(*) filter (where w.by_profile) as replies_out,
        round(percentile_cont(0.5) within group (order by extract(epoch from w.created_at - w.since))
          filter (where w.by_profile)) as median
      from w
      where w.created_at >= ${range.start}
      group by 1`,
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

export async function membersBySource(
  db: Executor,
  range: StatsRange,
  breakdown: StatsBreakdown,
  column: 'signup_date' | 'first_purchase_at',
) {
  const at = sql.raw(`u.${column}`);
  return rows(
    db,
    sourceRows,
    sql`select coalesce(u.trafficsource->>'network', '') as network, ${memberKey(breakdown)} as value, count(*) as n
      from users u
      where u.site_id in ${siteList(range)} and ${at} >= ${range.start} and ${at} < ${range.end} and ${realMember}
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
