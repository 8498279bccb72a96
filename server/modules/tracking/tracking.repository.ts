import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Executor } from '#server/db/client.ts';
import { type TrafficSource, users } from '#server/db/schema/members.ts';
import { type AttributionEventKind, type PostbackConfig, sites } from '#server/db/schema/sites.ts';
import { attributionEvents, memberActiveDays, visits } from '#server/db/schema/tracking.ts';

export type NewVisit = typeof visits.$inferInsert;

/** A new landing click; a click id already seen on the site (a network's id sent twice) is kept as it was. */
export async function insertVisit(db: Executor, visit: NewVisit): Promise<boolean> {
  const inserted = await db
    .insert(visits)
    .values(visit)
    .onConflictDoNothing({ target: [visits.siteId, visits.clickId] })
    .returning({ id: visits.id });
  return inserted.length > 0;
}

export async function findVisit(db: Executor, siteId: number, clickId: string) {
  const [row] = await db
    .select()
    .from(visits)
    .where(and(eq(visits.siteId, siteId), eq(visits.clickId, clickId)))
    .limit(1);
  return row;
}

/**
 * Marks the member's first activation or first paid order, once: the conditional update waits for a
 * parallel one's row lock and then finds the column set. Returns the member when this call set it.
 */
export async function markFirst(
  db: Executor,
  userId: number,
  column: 'activatedAt' | 'firstPurchaseAt',
  at: Date,
): Promise<{ siteId: number; trafficsource: TrafficSource | null } | undefined> {
  const [row] = await db
    .update(users)
    .set({ [column]: at })
    .where(and(eq(users.id, userId), isNull(users[column])))
    .returning({ siteId: users.siteId, trafficsource: users.trafficsource });
  return row;
}

export async function sitePostbacks(db: Executor, siteId: number): Promise<PostbackConfig[]> {
  const [row] = await db.select({ postbacks: sites.postbacks }).from(sites).where(eq(sites.id, siteId));
  return row?.postbacks ?? [];
}

/** One event per site, click and event: a repeat (or a parallel twin) is left out. */
export async function insertAttributionEvent(
  db: Executor,
  event: {
    siteId: number;
    clickId: string;
    userId: number;
    event: AttributionEventKind;
    network: string | null;
    amountCents: number | null;
    currency: string | null;
    occurredAt: Date;
    postbackUrl: string | null;
  },
): Promise<number | undefined> {
  const inserted = await db
    .insert(attributionEvents)
    .values({
      ...event,
      postbackStatus: event.postbackUrl ? 'pending' : 'none',
      postbackNextAt: event.postbackUrl ? event.occurredAt : null,
    })
    .onConflictDoNothing({
      target: [attributionEvents.siteId, attributionEvents.clickId, attributionEvents.event],
    })
    .returning({ id: attributionEvents.id });
  return inserted[0]?.id;
}

/** The member was signed in on this day (their site's). */
export async function insertActiveDay(db: Executor, userId: number, day: string): Promise<void> {
  await db.execute(
    sql`insert into ${memberActiveDays} (site_id, day, user_id) select ${users.siteId}, ${day}::date, ${users.id} from ${users} where ${users.id} = ${userId} on conflict do nothing`,
  );
}

// ---- the postback job

export async function findAttributionEvent(db: Executor, id: number) {
  const [row] = await db.select().from(attributionEvents).where(eq(attributionEvents.id, id));
  return row;
}

export async function markPostbackSent(db: Executor, id: number, attempts: number, at: Date): Promise<void> {
  await db
    .update(attributionEvents)
    .set({
      postbackStatus: 'sent',
      postbackAttempts: attempts,
      postbackSentAt: at,
      postbackNextAt: null,
      postbackError: null,
    })
    .where(eq(attributionEvents.id, id));
}

/** A failed attempt: the postback waits for `retryAt`, or without one it has failed for good. */
export async function markPostbackFailed(
  db: Executor,
  id: number,
  error: string,
  attempts: number,
  retryAt: Date | null,
): Promise<void> {
  await db
    .update(attributionEvents)
    .set({
      postbackStatus: retryAt ? 'pending' : 'failed',
      postbackAttempts: attempts,
      postbackNextAt: retryAt,
      postbackError: error.slice(0, 500),
    })
    .where(eq(attributionEvents.id, id));
}

export async function countPendingPostbacks(db: Executor): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(attributionEvents)
    .where(eq(attributionEvents.postbackStatus, 'pending'));
  return row?.count ?? 0;
}
