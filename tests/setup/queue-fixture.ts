import { sql } from 'drizzle-orm';
import type { Executor } from '../../server/db/client.ts';

/**
 * `count` members of one site and language, each waiting for one fictional profile (a message of
 * theirs, the conversation's waiting_since and waiting member set as the message write sets them), in a few statements
 * however many: for tests of a long queue. Their credits, paid status and waits vary by row.
 */
export async function seedWaiting(
  db: Executor,
  options: { count: number; siteId: number; language: string; fictionalProfileId: number; now: Date },
): Promise<void> {
  const { count, siteId, language, fictionalProfileId, now } = options;
  const tag = `q${process.pid}${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  await db.execute(sql`
    with u as (
      insert into users (site_id, email, status, language, credits, paid_user, signup_date)
      select ${siteId}, ${tag} || '.' || g || '@example.com', 'active', ${language}, (g % 4) * 5, g % 3 = 0, ${now}
      from generate_series(1, ${count}) g
      returning id
    )
    insert into profiles (user_id, name, birthdate, country, status)
    select id, 'Queue ' || id, '1990-01-01', 'NL', 'active' from u`);
  await db.execute(sql`
    insert into conversations (low_profile_id, high_profile_id, started_by_profile_id, created_at, last_message_at, waiting_since, waiting_user_id)
    select least(p.id, ${fictionalProfileId}), greatest(p.id, ${fictionalProfileId}), p.id, ${now}, ${now},
      ${now}::timestamptz - (p.id % 997) * interval '7 seconds', p.user_id
    from profiles p join users u on u.id = p.user_id
    where u.email like ${`${tag}.%`}`);
  await db.execute(sql`
    insert into messages (conversation_id, sender_profile_id, kind, text, created_at)
    select c.id, c.started_by_profile_id, 'text', 'Are you there?', c.waiting_since
    from conversations c join profiles p on p.id = c.started_by_profile_id join users u on u.id = p.user_id
    where u.email like ${`${tag}.%`}`);
  // Spends of 0–6 € over the last 30 days for most members: the value order's ties within a minute,
  // many of them across a page's edge.
  await db.execute(sql`
    insert into orders (user_id, site_id, bundle_id, credits, amount_cents, list_price_cents, currency, country,
      payment_method, provider, status, created_at, settled_at)
    select u.id, u.site_id, (select min(id) from bundles), 10, (u.id % 7) * 100, (u.id % 7) * 100, 'EUR', 'NL',
      'test', 'test', 'completed', ${now}::timestamptz - interval '1 day', ${now}::timestamptz - interval '1 day'
    from users u
    where u.email like ${`${tag}.%`} and u.id % 5 <> 0`);
}
