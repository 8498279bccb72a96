import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** A database of its own for one bench run, created empty and dropped at the end. */
export async function freshDatabase(
  adminUrl: string,
): Promise<{ url: string; name: string; drop(): Promise<void> }> {
  const name = `dating_bench_${Date.now().toString(36)}_${randomBytes(2).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database "${name}"`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    async drop() {
      const dropper = new pg.Client({ connectionString: adminUrl });
      await dropper.connect();
      await dropper.query(`drop database if exists "${name}" with (force)`);
      await dropper.end();
    },
  };
}

export type BenchMember = { userId: number; profileId: number; cookie: string };

/** SQL of a session token's stored hash: SHA-256, base64url without padding (server/lib/tokens.ts). */
const tokenHashSql = (token: string) =>
  `rtrim(translate(encode(sha256(convert_to(${token}, 'UTF8')), 'base64'), '+/', '-_'), '=')`;

/**
 * `count` logged-in members on the default site (active, paid, plenty of credits), each with a
 * session whose cookie is `sid=bench-<user id>`. Genders alternate, everyone seeks both, so any
 * two can write to each other.
 */
export async function seedMembers(db: pg.Pool, count: number, label: string): Promise<BenchMember[]> {
  const { rows } = await db.query<{ user_id: number; profile_id: number }>(
    `with site as (select id from sites where is_default limit 1),
     u as (
       insert into users (site_id, email, status, credits, paid_user, language, email_confirmed_at)
       select site.id, $2 || '.' || g || '@bench.invalid', 'active', 1000000000, true, 'en', now()
       from site, generate_series(1, $1::int) g
       returning id),
     p as (
       insert into profiles (user_id, name, gender, seeking, sexuality, birthdate, country, status, interests)
       select id, 'Bench ' || id, case when id % 2 = 0 then 'female' else 'male' end, 'both', 'bi',
              date '1990-01-01' + (id % 3000), 'NL', 'active', '["music"]'::jsonb
       from u
       returning id, user_id),
     s as (
       insert into sessions (token_hash, user_id, created_at, last_seen_at, expires_at)
       select ${tokenHashSql(`'bench-' || user_id`)}, user_id, now(), now(), now() + interval '30 days' from p)
     select user_id, id as profile_id from p order by user_id`,
    [count, label],
  );
  return rows.map((row) => ({
    userId: row.user_id,
    profileId: row.profile_id,
    cookie: `sid=bench-${row.user_id}`,
  }));
}

/**
 * `conversations` conversations of `member` with fictional demo profiles, three messages each (the
 * last one unread), newest first as the list shows them.
 */
export async function seedConversations(
  db: pg.Pool,
  member: BenchMember,
  conversations: number,
): Promise<void> {
  await db.query(
    `with others as (
       select id, row_number() over (order by id) as n from profiles
       where id <> $1 and fictional order by id limit $2),
     c as (
       insert into conversations (low_profile_id, high_profile_id, started_by_profile_id, created_at, last_message_at)
       select least($1::int, id), greatest($1::int, id), $1::int, now() - interval '2 days', now() - n * interval '1 minute'
       from others
       returning id, case when low_profile_id = $1::int then high_profile_id else low_profile_id end as other),
     m as (
       insert into messages (conversation_id, sender_profile_id, kind, text, credits, created_at)
       select c.id, case when k = 2 then $1::int else c.other end, 'text', 'Hello there, message ' || k, 0,
              now() - interval '1 day' + k * interval '1 minute'
       from c, generate_series(1, 3) k
       returning id, conversation_id),
     parts as (
       insert into conversation_participants (conversation_id, profile_id, last_read_message_id)
       select c.id, $1::int, (select min(m.id) from m where m.conversation_id = c.id) from c
       union all
       select c.id, c.other, (select max(m.id) from m where m.conversation_id = c.id) from c
       returning 1)
     select count(*) from parts`,
    [member.profileId, conversations],
  );
}

/**
 * Grows the profiles to `total` with plain SQL (generate_series): members spread over the default
 * site's countries, both genders, ages 18-80, active in the last 30 days, then vacuumed as a settled
 * table would be. Returns the seconds it took.
 */
export async function seedSearchProfiles(db: pg.Pool, total: number): Promise<number> {
  const started = performance.now();
  const [{ count } = { count: 0 }] = (
    await db.query<{ count: number }>('select count(*)::int as count from profiles')
  ).rows;
  const wanted = total - count;
  const batch = 250_000;
  for (let done = 0; done < wanted; done += batch) {
    const size = Math.min(batch, wanted - done);
    await db.query(
      `with site as (select id, countries from sites where is_default limit 1),
       u as (
         insert into users (site_id, status, language, signup_date)
         select site.id, 'active', 'en', now() - (g % 720) * interval '1 hour'
         from site, generate_series(1, $1::int) g
         returning id)
       insert into profiles (user_id, name, gender, seeking, sexuality, birthdate, country, status, fictional,
                             last_active_at, created_at, interests)
       select u.id, 'Member ' || u.id,
              case when u.id % 2 = 0 then 'female' else 'male' end,
              case when u.id % 2 = 0 then 'male' else 'female' end, 'hetero',
              date '1946-01-01' + ((u.id::bigint * 7919) % 22000)::int,
              (select countries->>((u.id % jsonb_array_length(countries))::int) from site),
              'active', true,
              now() - ((u.id::bigint * 104729) % 2592000) * interval '1 second',
              now() - interval '60 days', '[]'::jsonb
       from u`,
      [size],
    );
  }
  // As autovacuum leaves a table some minutes after a bulk load: hint bits set and the visibility
  // map current. Without it, the first searches set hint bits on the pages they read (writes), and
  // autovacuum works through the new rows while the searches are measured.
  await db.query('vacuum analyze users, profiles');
  await db.query('analyze');
  return (performance.now() - started) / 1000;
}
