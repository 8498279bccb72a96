/**
 * The back office's numbers over a seeded year: a fresh PostgreSQL database with one site
 * of 100,000 members and a year of their signups, activations, orders, conversations, active days
 * and landing clicks (generate_series, a minute or two), then the dashboard's queries — a year and
 * the default 30 days, for the site and for all sites — timed (median of 5 runs after a warm-up),
 * with the EXPLAIN (ANALYZE, BUFFERS) of every query in bench/results/dashboard-plans.txt.
 *
 *   node --import tsx bench/dashboard.ts            # 100,000 members
 *   node --import tsx bench/dashboard.ts --quick    # 10,000 members, to try it out
 *
 * DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres) names the server; the bench
 * database `dating_bench_dash_<pid>` is made and dropped.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { type SQL, sql } from 'drizzle-orm';
import pg from 'pg';
import { z } from 'zod';
import type { StatsBreakdown, StatsGranularity } from '#contract/admin-stats.ts';
import { connectPostgres, type Executor } from '#server/db/client.ts';
import * as replies from '#server/modules/stats/replies.repository.ts';
import * as repo from '#server/modules/stats/stats.repository.ts';
import { periodSpans, StatsService } from '#server/modules/stats/stats.service.ts';

const quick = process.argv.includes('--quick');
const members = quick ? 10_000 : 100_000;
const serverUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const database = `dating_bench_dash_${process.pid}`;
const dayMs = 86_400_000;
const yearEnd = '2026-06-30';
const yearStart = '2025-07-01';

/** The rows of a raw query (pg answers { rows }). */
async function rowsOf<T extends z.ZodType>(db: Executor, schema: T, query: SQL): Promise<z.infer<T>> {
  const { rows } = z.object({ rows: z.array(z.unknown()) }).parse(await db.execute(query));
  return schema.parse(rows);
}

function urlFor(name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

async function seed(db: Executor): Promise<number> {
  const run = (query: SQL) => db.execute(query);
  await run(
    sql`insert into companies (id, name, address, kvk, city, country, support_phone, added) values ((select coalesce(max(id), 0) + 1 from companies), 'Bench BV', 'Street 1', '1', 'Amsterdam', 'NL', '', '2025-01-01')`,
  );
  const site = await rowsOf(
    db,
    z.array(z.object({ id: z.coerce.number() })),
    sql`insert into sites (domain, name, index_title, description, countries, support_email, company_id)
      select 'bench-dashboard.localhost', 'Bench', 'Bench', '', '["NL"]'::jsonb, 'support@example.com', max(id) from companies
      returning id`,
  );
  const siteId = site[0]!.id;
  await run(
    sql`insert into sites (domain, name, index_title, description, countries, support_email, company_id)
      select 'bench-other.localhost', 'Other', 'Other', '', '["NL"]'::jsonb, 'support@example.com', max(id) from companies`,
  );
  await run(sql`insert into bundles (credits) select 25 where not exists (select 1 from bundles)`);
  // Members over the year: 70 % activate, 15 % buy, 60 % came from one of three networks.
  await run(sql`insert into users (site_id, email, status, signup_date, activated_at, first_purchase_at, trafficsource)
    select ${siteId}, 'm' || g || '@bench.example', 'active',
      s.at, case when g % 10 < 7 then s.at + interval '20 minutes' end,
      case when g % 20 < 3 then s.at + interval '2 days' end,
      case when g % 5 < 3 then jsonb_build_object('network', (array['adnet','pushnet','native'])[1 + g % 3],
        'sub1', 'c' || (g % 40), 'lander', (array['gallery','video','tinderswipe','maplanding'])[1 + g % 4],
        'click_id', 'k' || g) end
    from generate_series(1, ${members}) g,
      lateral (select ${yearStart}::timestamptz + (g::float / ${members}) * interval '365 days' as at) s`);
  await run(sql`insert into profiles (user_id, name, birthdate, country, fictional, status)
    select id, 'M' || id, '1990-01-01', 'NL', false, 'active' from users where site_id = ${siteId}`);
  // 200 fictional profiles the members write to.
  await run(
    sql`insert into users (site_id, status, signup_date) select ${siteId}, 'active', ${yearStart}::timestamptz from generate_series(1, 200)`,
  );
  await run(sql`insert into profiles (user_id, name, birthdate, country, fictional, status)
    select u.id, 'F' || u.id, '1995-01-01', 'NL', true, 'active' from users u
    where u.site_id = ${siteId} and u.email is null`);
  await run(sql`insert into orders (user_id, site_id, bundle_id, credits, amount_cents, list_price_cents, currency, country, payment_method, provider, status, created_at, settled_at)
    select u.id, ${siteId}, (select min(id) from bundles), 25, 1299 + (n * 500), 1299 + (n * 500),
      case when u.id % 4 = 0 then 'USD' else 'EUR' end, 'NL', 'ideal', 'test',
      case when n = 2 and u.id % 7 = 0 then 'refunded' else 'completed' end,
      u.first_purchase_at + n * interval '9 days', u.first_purchase_at + n * interval '9 days'
    from users u, generate_series(0, 2) n
    where u.site_id = ${siteId} and u.first_purchase_at is not null and (n = 0 or u.id % (n + 1) = 0)`);
  // 60 % of the members talk to a fictional profile: 15 messages, every third one the profile's.
  await run(sql`insert into conversations (low_profile_id, high_profile_id, started_by_profile_id, created_at)
    select p.id, f.first + p.id % 200, p.id, u.signup_date
    from profiles p join users u on u.id = p.user_id,
      (select min(id) as first from profiles where fictional) f
    where not p.fictional and u.site_id = ${siteId} and p.id % 5 < 3`);
  await run(sql`insert into messages (conversation_id, sender_profile_id, kind, text, created_at)
    select c.id, case when k % 3 = 0 then c.high_profile_id else c.low_profile_id end, 'text', 'hi',
      c.created_at + k * interval '7 minutes' + (c.id % 13) * interval '1 minute'
    from conversations c, generate_series(1, 15) k`);
  // Member messages cost 2 credits; ten operators wrote the profiles' messages (the audit trail's
  // reply entries, as the console writes them), so the earnings attribution runs over a year of them.
  await run(sql`update messages m set credits = 2 from conversations c
    where c.id = m.conversation_id and m.sender_profile_id = c.low_profile_id`);
  await run(sql`insert into staff (email, name, role, password_hash, created_at)
    select 'op' || g || '@bench.example', 'Operator ' || g, 'operator', 'x', ${yearStart}::timestamptz
    from generate_series(1, 10) g`);
  await run(sql`insert into staff_audit (staff_id, action, object, detail, at)
    select (select min(id) from staff where email like 'op%@bench.example') + m.id % 10, 'reply',
      'conversation:' || m.conversation_id,
      jsonb_build_object('message', m.id, 'waited_seconds', 60 + m.id % 900), m.created_at
    from messages m join conversations c on c.id = m.conversation_id
    where m.sender_profile_id = c.high_profile_id`);
  // Members report every hundredth reply an hour later: the reports are counted live on each call.
  await run(sql`insert into reports (reporter_user_id, profile_id, message_id, reason, created_at)
    select lp.user_id, m.sender_profile_id, m.id, 'offensive', m.created_at + interval '1 hour'
    from messages m join conversations c on c.id = m.conversation_id join profiles lp on lp.id = c.low_profile_id
    where m.sender_profile_id = c.high_profile_id and m.id % 100 = 0`);
  // Win-back codes for every 50th member a month after signing up; every fifth is redeemed.
  await run(sql`insert into discount_codes (code, site_id, user_id, value_percentage, created_at)
    select 'WB' || u.id, ${siteId}, u.id, 20, u.signup_date + interval '30 days'
    from users u where u.site_id = ${siteId} and u.email is not null and u.id % 50 = 0`);
  await run(sql`insert into winback_offers (site_id, user_id, round, discount_code_id, sent_at)
    select ${siteId}, d.user_id, 1, d.id, d.created_at from discount_codes d where d.code like 'WB%'`);
  await run(sql`update orders o set discount_code_id = d.id from discount_codes d
    where d.code like 'WB%' and d.user_id = o.user_id and o.user_id % 250 = 0`);
  await run(sql`insert into traffic_costs (site_id, network, from_day, to_day, currency, amount_cents, created_at)
    select ${siteId}, n, ${yearStart}::date + (m * 30), ${yearStart}::date + (m * 30) + 29, 'EUR', 150000, now()
    from unnest(array['adnet','pushnet','native']) n, generate_series(0, 11) m`);
  // Active days: 60 % of the members, 15 days each after their signup, up to the year's last day
  // (the day a "year to today" call counts live).
  await run(sql`insert into member_active_days (site_id, day, user_id)
    select ${siteId}, (u.signup_date + d * interval '3 days')::date, u.id
    from users u, generate_series(0, 14) d
    where u.site_id = ${siteId} and u.email is not null and u.id % 5 < 3
      and u.signup_date + d * interval '3 days' < ${yearEnd}::timestamptz + interval '1 day'
    on conflict do nothing`);
  // Landing clicks: three per tracked member.
  await run(sql`insert into visits (site_id, click_id, network, sub1, lander, path, first_seen_at)
    select ${siteId}, 'v' || u.id || '-' || n, u.trafficsource->>'network', u.trafficsource->>'sub1',
      u.trafficsource->>'lander', '/landers/' || (u.trafficsource->>'lander'), u.signup_date - n * interval '1 hour'
    from users u, generate_series(0, 2) n where u.site_id = ${siteId} and u.trafficsource is not null`);
  await run(sql`analyze`);
  return siteId;
}

async function counts(db: Executor) {
  const tables = [
    'users',
    'orders',
    'conversations',
    'messages',
    'member_active_days',
    'visits',
    'staff_audit',
    'reports',
    'winback_offers',
  ];
  const found: Record<string, number> = {};
  for (const table of tables) {
    const [row] = await rowsOf(
      db,
      z.array(z.object({ n: z.coerce.number() })),
      sql.raw(`select count(*)::int as n from ${table}`),
    );
    found[table] = row?.n ?? 0;
  }
  return found;
}

/** Median of the runs after one warm-up. */
async function time(run: () => Promise<unknown>, runs = 5): Promise<number> {
  await run();
  const took: number[] = [];
  for (let index = 0; index < runs; index++) {
    const started = performance.now();
    await run();
    took.push(performance.now() - started);
  }
  took.sort((a, b) => a - b);
  return Math.round(took[Math.floor(took.length / 2)]! * 10) / 10;
}

/** The plans of the repository's queries: an executor that runs EXPLAIN and answers no rows. */
function explaining(db: Executor, plans: string[], title: string): Executor {
  const explain = {
    async execute(query: SQL) {
      const lines = await rowsOf(
        db,
        z.array(z.object({ 'QUERY PLAN': z.string() })),
        sql`explain (analyze, buffers) ${query}`,
      );
      plans.push(`---- ${title}\n${lines.map((line) => line['QUERY PLAN']).join('\n')}\n`);
      return { rows: [] };
    },
  };
  // A stand-in for the database in a measuring script: only execute() is used by the repository.
  return explain as unknown as Executor;
}

async function main() {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${database}`);
  const handle = await connectPostgres(urlFor(database), 4);
  try {
    await handle.migrate();
    const seeding = performance.now();
    const siteId = await seed(handle.db);
    const seededIn = Math.round((performance.now() - seeding) / 1000);
    const rows = await counts(handle.db);
    console.log(`seeded in ${seededIn} s:`, rows);

    const stats = new StatsService(handle.db);
    const last30 = new Date(Date.parse(`${yearEnd}T00:00:00Z`) - 29 * dayMs).toISOString().slice(0, 10);
    const cases: {
      name: string;
      from: string;
      site?: number;
      breakdown: StatsBreakdown;
      granularity?: StatsGranularity;
    }[] = [
      { name: 'year, site, by network', from: '2025-07-02', site: siteId, breakdown: 'network' },
      { name: 'year, site, by lander', from: '2025-07-02', site: siteId, breakdown: 'lander' },
      { name: 'year, all sites', from: '2025-07-02', breakdown: 'network' },
      {
        name: 'year, site, per week',
        from: '2025-07-02',
        site: siteId,
        breakdown: 'network',
        granularity: 'week',
      },
      {
        name: 'year, site, per month',
        from: '2025-07-02',
        site: siteId,
        breakdown: 'network',
        granularity: 'month',
      },
      { name: '30 days, site', from: last30, site: siteId, breakdown: 'network' },
      { name: '30 days, all sites, by sub1', from: last30, breakdown: 'sub1' },
    ];
    const table: { case: string; ms: number }[] = [];
    // The reference of this run: the least a query costs on this machine now (a primary-key select),
    // so the figures below can be read against the machine's load at the time.
    table.push({
      case: 'reference: one primary-key select',
      ms: await time(() => handle.db.execute(sql`select id from users where id = 1`), 20),
    });
    const load = (await import('node:os')).loadavg()[0]!.toFixed(1);
    console.log(`load average at the start of the timings: ${load}`);
    // The first look at a year fills stats_site_days (the closed days' messages and active members)
    // once; every later call reads the stored days.
    const cold = performance.now();
    await stats.stats({
      from: '2025-07-02',
      to: yearEnd,
      breakdown: 'network',
      granularity: 'week',
      site: siteId,
    });
    table.push({
      case: 'year, site, per week, first call (fills the stored days and spans)',
      ms: Math.round(performance.now() - cold),
    });
    // The reply days' part of that first call alone: forgotten (their rows cascade) and stored again.
    await handle.db.execute(sql`delete from stats_reply_days`);
    const replyFill = performance.now();
    await replies.fillReplyDays(handle.db, { from: '2025-07-02', to: yearEnd });
    table.push({
      case: '  of it: storing the year’s reply days',
      ms: Math.round(performance.now() - replyFill),
    });
    for (const item of cases) {
      const query = {
        from: item.from,
        to: yearEnd,
        breakdown: item.breakdown,
        granularity: item.granularity ?? 'day',
        ...(item.site ? { site: item.site } : {}),
      };
      table.push({ case: item.name, ms: await time(() => stats.stats(query)) });
    }
    // The year up to today as an owner asks for it: the last day still open, counted from the
    // messages and active days on every call (after a warm-up that stores the day before it).
    const today = new StatsService(handle.db, { now: () => new Date(`${yearEnd}T12:00:00Z`) });
    for (const granularity of ['day', 'week'] as const) {
      const query = {
        from: '2025-07-02',
        to: yearEnd,
        breakdown: 'network',
        granularity,
        site: siteId,
      } as const;
      table.push({
        case: `year to today (its last day open), site, per ${granularity}`,
        ms: await time(() => today.stats(query)),
      });
    }
    // Each query alone, over the year of the site.
    const range: repo.StatsRange = {
      from: '2025-07-02',
      to: yearEnd,
      start: new Date('2025-07-02T00:00:00Z'),
      end: new Date(Date.parse(`${yearEnd}T00:00:00Z`) + dayMs),
      siteIds: [siteId],
    };
    const everyStaff = { from: range.from, siteIds: [siteId], staffIds: null };
    const plans: string[] = [];
    const single: [string, (db: Executor) => Promise<unknown>][] = [
      ['signups per day', (db) => repo.membersPerDay(db, range, 'signup_date')],
      ['activations per day', (db) => repo.membersPerDay(db, range, 'activated_at')],
      ['first purchases per day', (db) => repo.membersPerDay(db, range, 'first_purchase_at')],
      ['orders per day', (db) => repo.ordersPerDay(db, range)],
      [
        'messages and reply times per day, from the messages',
        (db) =>
          db === handle.db
            ? repo.messagesPerDay(db, range)
            : handle.db.transaction(async (tx) => {
                await tx.execute(sql`set local work_mem = '64MB'`);
                return repo.messagesQuery(
                  explaining(tx, plans, 'messages and reply times per day, from the messages'),
                  range,
                );
              }),
      ],
      ['stored days: messages, reply times, active members', (db) => repo.storedSiteDays(db, range)],
      [
        'stored days, two sites (median of the waits together)',
        (db) => repo.storedSiteDays(db, { ...range, siteIds: [siteId, siteId + 1] }),
      ],
      ['missing stored days (none)', (db) => repo.missingSiteDays(db, range)],
      ['active members per day, from the active days', (db) => repo.activeMembersPerDay(db, range)],
      ['visits by network', (db) => repo.visitsBySource(db, range, 'network')],
      ['signups, activations and buyers by network', (db) => repo.membersBySource(db, range, 'network')],
      ['revenue by network', (db) => repo.revenueBySource(db, range, 'network')],
      ['partly refunded orders per day', (db) => repo.partlyRefundedPerDay(db, range)],
      ['refunds and chargebacks per day', (db) => repo.reversalsPerDay(db, range)],
      ['paying members', (db) => repo.payingMembers(db, range)],
      [
        'active members of the year, stored',
        (db) => repo.storedActiveSpans(db, [siteId], [{ first: range.from, last: range.to }]),
      ],
      [
        'active members of an open last day, not active before it in the year',
        (db) => {
          const spans = [{ first: range.from, openFrom: yearEnd, last: yearEnd }];
          return db === handle.db
            ? repo.openActiveSpans(db, [siteId], spans)
            : handle.db.transaction(async (tx) => {
                await tx.execute(sql`set local jit = off`);
                return repo.openActiveQuery(
                  explaining(
                    tx,
                    plans,
                    'active members of an open last day, not active before it in the year',
                  ),
                  [siteId],
                  spans,
                );
              });
        },
      ],
      ['cohorts: who paid and how fast', (db) => repo.cohortMembers(db, range)],
      ['cohorts: revenue per member', (db) => repo.cohortRevenue(db, range)],
      [
        'replies per operator, from the stored days',
        (db) => replies.staffReplyFigures(db, { ...everyStaff, stored: range, open: null }),
      ],
      [
        'replies per profile, from the stored days',
        (db) => replies.profileReplyFigures(db, { ...everyStaff, stored: range, open: null }),
      ],
      ['reports about the replies (counted live)', (db) => replies.replyReports(db, range, everyStaff)],
      ['missing stored reply days (none)', (db) => replies.missingReplyDays(db, range)],
      [
        'replies per operator of one open day, from the messages',
        (db) =>
          replies.staffReplyFigures(db, {
            ...everyStaff,
            from: yearEnd,
            stored: null,
            open: { from: yearEnd, to: yearEnd },
          }),
      ],
      [
        'replies per profile of one open day, from the messages',
        (db) =>
          replies.profileReplyFigures(db, {
            ...everyStaff,
            from: yearEnd,
            stored: null,
            open: { from: yearEnd, to: yearEnd },
          }),
      ],
      ['paying members per week', (db) => repo.ordersPerPeriod(db, range, 'week')],
      ...(['week', 'month'] as const).map((unit): [string, (db: Executor) => Promise<unknown>] => [
        `active members per ${unit}, stored`,
        (db) => repo.storedActiveSpans(db, [siteId], periodSpans(range, unit)),
      ]),
      ['win-back results', (db) => repo.winbackResults(db, range)],
      ['costs in the range', (db) => repo.costsInRange(db, range, false)],
    ];
    for (const [name, run] of single) {
      table.push({ case: `  ${name} (year)`, ms: await time(() => run(handle.db), 3) });
      await run(explaining(handle.db, plans, name));
    }
    console.table(table);
    const folder = path.join(import.meta.dirname, 'results');
    await mkdir(folder, { recursive: true });
    await writeFile(path.join(folder, 'dashboard-plans.txt'), plans.join('\n'));
    await writeFile(
      path.join(folder, 'dashboard.json'),
      JSON.stringify({ members, seededIn, rows, table }, null, 2),
    );
    console.log(`plans: ${path.join(folder, 'dashboard-plans.txt')}`);
  } finally {
    await handle.close();
    await admin.query(`drop database if exists ${database} with (force)`);
    await admin.end();
  }
}

await main();
