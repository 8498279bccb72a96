import { type SQL, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Executor } from '#server/db/client.ts';
import { rows } from './stats.repository.ts';

/**
 * The staff's replies and what they earned, per staff member and per fictional profile
 * (docs/decisions/061). A reply is the audit trail's `reply` entry (who wrote it, and when: its UTC
 * day); its message gives the conversation, the profile and the member's site. A reply earns the
 * credits of the member's messages in its conversation after it, within 24 hours, up to the
 * profile's next message (a later reply earns from there on, so no credit counts twice). Closed days
 * are stored once (stats_staff_reply_days, stats_profile_reply_days); the open ones are computed from
 * the audit trail and the messages by the same statement the stored ones were filled with.
 */

/** UTC days, both included. */
export type Days = { from: string; to: string };
/** Which replies count: of some sites' members and of some staff (null: all of them). */
export type ReplyFilter = { siteIds: number[] | null; staffIds: number[] | null };

const count = z.coerce.number().int();
const dayMs = 86_400_000;
const startOf = (day: string) => new Date(`${day}T00:00:00Z`);
const endOf = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) + dayMs);
const list = (ids: number[]) =>
  ids.length === 0
    ? sql`null`
    : sql.join(
        ids.map((id) => sql`${id}`),
        sql`, `,
      );
const dayList = (days: string[]) =>
  sql.join(
    days.map((day) => sql`${day}::date`),
    sql`, `,
  );

/**
 * The CTEs of the replies of some days: `reply` (each reply with its site and wait), `later` (the
 * messages of their conversations from the first reply on, each with the message of the other side
 * it follows: a window instead of a lookup per reply), `earning` (per reply message, what the member
 * spent after it within 24 hours before the profile wrote again), `r` (each reply with its
 * earnings) and `visit` (each staff member's conversations per day, with the last earlier day they
 * replied in it: the ones in these days by a window, an older one through the replies' index by
 * conversation — the console names a reply's conversation as its object, operator.service.ts).
 */
function replies(days: Days, filter: ReplyFilter) {
  const start = startOf(days.from);
  const staff = filter.staffIds === null ? sql`` : sql`and a.staff_id in (${list(filter.staffIds)})`;
  const sites = filter.siteIds === null ? sql`` : sql`and mu.site_id in (${list(filter.siteIds)})`;
  return sql`reply as (
      select a.staff_id, m.id as message_id, m.sender_profile_id as profile_id, m.conversation_id,
        c.low_profile_id, c.high_profile_id, m.created_at, (a.at at time zone 'UTC')::date as day,
        mu.site_id, (a.detail->>'waited_seconds')::float8 as waited
      from staff_audit a
      join messages m on m.id = (a.detail->>'message')::int
      join conversations c on c.id = m.conversation_id
      join profiles lp on lp.id = c.low_profile_id
      join profiles hp on hp.id = c.high_profile_id
      join users mu on mu.id = case when lp.fictional then hp.user_id else lp.user_id end
      where a.action = 'reply' and a.at >= ${start} and a.at < ${endOf(days.to)} and a.staff_id is not null
        ${staff} ${sites}
    ), later as (
      select m.created_at, m.credits,
        case m.sender_profile_id
          when f.low then max(m.id) filter (where m.sender_profile_id = f.high) over w
          when f.high then max(m.id) filter (where m.sender_profile_id = f.low) over w
        end as follows
      from (
        select conversation_id, min(message_id) as first, min(low_profile_id) as low, min(high_profile_id) as high
        from reply group by 1
      ) f
      join messages m on m.conversation_id = f.conversation_id and m.id >= f.first
      window w as (partition by m.conversation_id order by m.id rows between unbounded preceding and 1 preceding)
    ), earning as (
      select q.message_id, sum(x.credits) as earned
      from (select distinct message_id, created_at from reply) q
      join later x on x.follows = q.message_id
      where x.credits > 0 and x.created_at <= q.created_at + interval '24 hours'
      group by 1
    ), r as (
      select reply.*, coalesce(earning.earned, 0) as earned
      from reply left join earning on earning.message_id = reply.message_id
    ), visit as (
      select r.day, r.site_id, r.staff_id, coalesce(
          lag(r.day) over (partition by r.staff_id, r.conversation_id order by r.day),
          (select (max(b.at) at time zone 'UTC')::date from staff_audit b
            join messages bm on bm.id = (b.detail->>'message')::int
            where b.action = 'reply' and b.object = 'conversation:' || r.conversation_id
              and b.staff_id = r.staff_id and b.at < ${start} and bm.conversation_id = r.conversation_id),
          '-infinity') as earlier
      from r
      group by r.day, r.site_id, r.staff_id, r.conversation_id
    ), staff_days as (
      select s.day, s.site_id, s.staff_id, s.replies, s.earned, s.waits, v.earlier_days
      from (
        select r.day, r.site_id, r.staff_id, count(*) as replies, sum(r.earned) as earned,
          coalesce(array_agg(r.waited order by r.waited) filter (where r.waited is not null), '{}') as waits
        from r group by 1, 2, 3
      ) s
      join (
        select v.day, v.site_id, v.staff_id, array_agg(v.earlier order by v.earlier) as earlier_days
        from visit v group by 1, 2, 3
      ) v on v.day = s.day and v.site_id = s.site_id and v.staff_id = s.staff_id
    ), profile_days as (
      select r.day, r.site_id, r.profile_id, count(*) as replies, sum(r.earned) as earned
      from r group by 1, 2, 3
    )`;
}

/** The days of a span whose replies are not stored yet. */
export async function missingReplyDays(db: Executor, days: Days): Promise<string[]> {
  const found = await rows(
    db,
    z.array(z.object({ day: z.string() })),
    sql`select to_char(d.day, 'YYYY-MM-DD') as day
      from generate_series(${days.from}::date, ${days.to}::date, interval '1 day') d(day)
      where not exists (select 1 from stats_reply_days x where x.day = d.day::date)
      order by d.day`,
  );
  return found.map((row) => row.day);
}

/**
 * Stores the replies of the days of a span not stored yet, every site at once, and answers which
 * days this call stored. The days are claimed first (`on conflict do nothing`): a day another
 * instance is storing waits for its commit and is then left to it, so each day is stored once.
 */
export async function fillReplyDays(db: Executor, days: Days): Promise<string[]> {
  return db.transaction(async (tx) => {
    // The windows sort the span's messages: in memory, not in temporary files (this fill only).
    await tx.execute(sql`set local work_mem = '64MB'`);
    const claimed = (
      await rows(
        tx,
        z.array(z.object({ day: z.string() })),
        sql`insert into stats_reply_days (day)
          select d.day::date from generate_series(${days.from}::date, ${days.to}::date, interval '1 day') d(day)
          on conflict do nothing
          returning to_char(day, 'YYYY-MM-DD') as day`,
      )
    )
      .map((row) => row.day)
      .sort();
    if (claimed.length === 0) return [];
    const span = { from: claimed[0]!, to: claimed.at(-1)! };
    await tx.execute(sql`with ${replies(span, { siteIds: null, staffIds: null })}, stored as (
        insert into stats_staff_reply_days (day, site_id, staff_id, replies, earned, waits, earlier_days)
        select day, site_id, staff_id, replies, earned, waits, earlier_days from staff_days
        where day in (${dayList(claimed)})
      )
      insert into stats_profile_reply_days (day, site_id, profile_id, replies, earned)
      select day, site_id, profile_id, replies, earned from profile_days
      where day in (${dayList(claimed)})`);
    return claimed;
  });
}

/** A range of days split into the stored ones and the open ones after them (either may be absent). */
export type SplitRange = ReplyFilter & { from: string; stored: Days | null; open: Days | null };

/** The stored rows of the range's closed days and the open days' rows computed now, as one set. */
function bothParts(range: SplitRange, table: 'staff' | 'profile', columns: SQL): SQL {
  const parts: SQL[] = [];
  if (range.stored) {
    const x = sql.raw(table === 'staff' ? 'stats_staff_reply_days' : 'stats_profile_reply_days');
    const sites = range.siteIds === null ? sql`` : sql`and x.site_id in (${list(range.siteIds)})`;
    const staff =
      range.staffIds === null || table === 'profile'
        ? sql``
        : sql`and x.staff_id in (${list(range.staffIds)})`;
    parts.push(sql`select ${columns} from ${x} x
      where x.day >= ${range.stored.from}::date and x.day <= ${range.stored.to}::date ${sites} ${staff}`);
  }
  if (range.open)
    parts.push(sql`select ${columns} from ${sql.raw(table === 'staff' ? 'staff_days' : 'profile_days')} x`);
  return sql.join(parts, sql` union all `);
}

const withOpen = (range: SplitRange, filter: ReplyFilter) =>
  range.open ? sql`with ${replies(range.open, filter)},` : sql`with`;

/**
 * Per staff member of the range: replies, conversations (each counted on its first day in the
 * range: where the day's earlier reply day is before the range), the median and 90th percentile of
 * the members' wait (over every reply's wait) and what they earned. The percentiles are taken per
 * staff member (lateral): each sorts its own waits, instead of sorting the year's waits by staff
 * member first (half the time in bench/dashboard.ts).
 */
export async function staffReplyFigures(db: Executor, range: SplitRange) {
  return rows(
    db,
    z.array(
      z.object({
        staff_id: count,
        replies: count,
        conversations: count,
        earned: count,
        median: z.coerce.number().nullable(),
        p90: z.coerce.number().nullable(),
      }),
    ),
    sql`${withOpen(range, range)} s as (
        ${bothParts(range, 'staff', sql`x.staff_id, x.replies, x.earned, x.waits, x.earlier_days`)}
      )
      select t.staff_id, t.replies, t.conversations, t.earned, w.median, w.p90
      from (
        select s.staff_id, sum(s.replies) as replies, sum(s.earned) as earned,
          sum(width_bucket(${range.from}::date - 1, s.earlier_days)) as conversations
        from s group by 1
      ) t
      cross join lateral (
        select percentile_cont(0.5) within group (order by v.wait) as median,
          percentile_cont(0.9) within group (order by v.wait) as p90
        from s x cross join unnest(x.waits) v(wait)
        where x.staff_id = t.staff_id
      ) w`,
  );
}

/** Per fictional profile of the range (every staff member's replies): replies and what they earned. */
export async function profileReplyFigures(db: Executor, range: SplitRange) {
  return rows(
    db,
    z.array(z.object({ profile_id: count, replies: count, earned: count })),
    sql`${withOpen(range, { siteIds: range.siteIds, staffIds: null })} s as (
        ${bothParts(range, 'profile', sql`x.profile_id, x.replies, x.earned`)}
      )
      select s.profile_id, sum(s.replies) as replies, sum(s.earned) as earned from s group by 1`,
  );
}

/**
 * The reports about each staff member's replies of some days, counted now: a member may report a
 * message any time after it, so this figure is never stored. From the reports to their message and
 * its reply entry (the replies' index by conversation).
 */
export async function replyReports(db: Executor, days: Days, filter: ReplyFilter) {
  const staff = filter.staffIds === null ? sql`` : sql`and a.staff_id in (${list(filter.staffIds)})`;
  const sites =
    filter.siteIds === null
      ? sql``
      : sql`and exists (
          select 1 from conversations c
          join profiles lp on lp.id = c.low_profile_id
          join profiles hp on hp.id = c.high_profile_id
          join users mu on mu.id = case when lp.fictional then hp.user_id else lp.user_id end
          where c.id = m.conversation_id and mu.site_id in (${list(filter.siteIds)}))`;
  return rows(
    db,
    z.array(z.object({ staff_id: count, reports: count })),
    // Each report looks its message up by key: `offset 0` keeps the planner from flattening the
    // lookup into a join, which it hashed against a sequential scan of every message (the dashboard
    // bench, 2026-12-03: 186 of 299 ms for a year of 900,000 messages and 3,000 reports).
    sql`select a.staff_id, count(*) as reports
      from reports rp
      cross join lateral (select m.id, m.conversation_id from messages m where m.id = rp.message_id offset 0) m
      join staff_audit a on a.action = 'reply' and a.object = 'conversation:' || m.conversation_id
        and (a.detail->>'message')::int = m.id
      where a.at >= ${startOf(days.from)} and a.at < ${endOf(days.to)} and a.staff_id is not null
        ${staff} ${sites}
      group by 1`,
  );
}

/** Names of staff members and of fictional profiles, by id. */
export async function staffNames(db: Executor, ids: number[]) {
  if (ids.length === 0) return [];
  return rows(
    db,
    z.array(z.object({ id: count, name: z.string(), role: z.enum(['operator', 'moderator', 'admin']) })),
    sql`select id, name, role from staff where id in (${list(ids)})`,
  );
}

export async function profileNames(db: Executor, ids: number[]) {
  if (ids.length === 0) return [];
  return rows(
    db,
    z.array(z.object({ id: count, name: z.string() })),
    sql`select id, name from profiles where id in (${list(ids)})`,
  );
}
