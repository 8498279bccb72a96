import { and, desc, eq, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import type { Executor } from '#server/db/client.ts';
import { profiles, users } from '#server/db/schema/members.ts';
import { type NudgeKind, nudgeSends, winbackOffers, winbackRules } from '#server/db/schema/nudges.ts';
import { discountRedemptions } from '#server/db/schema/payments.ts';

/** The newest event a nudge of this kind told the member of (nothing newer: nothing to tell). */
export async function latestToldOf(db: Executor, userId: number, kind: NudgeKind): Promise<Date | null> {
  const [row] = await db
    .select({ latest: nudgeSends.latestEventAt })
    .from(nudgeSends)
    .where(and(eq(nudgeSends.userId, userId), eq(nudgeSends.kind, kind)))
    .orderBy(desc(nudgeSends.latestEventAt))
    .limit(1);
  return row?.latest ?? null;
}

/**
 * Takes the member's nudge of this local day; false when one is taken already (by another nudge,
 * or by another instance a moment ago): the unique (user, local_date) decides, not a read.
 */
export async function claimNudgeDay(db: Executor, nudge: typeof nudgeSends.$inferInsert): Promise<boolean> {
  const inserted = await db
    .insert(nudgeSends)
    .values(nudge)
    .onConflictDoNothing({ target: [nudgeSends.userId, nudgeSends.localDate] })
    .returning({ id: nudgeSends.id });
  return inserted.length > 0;
}

export type WinbackRuleRow = typeof winbackRules.$inferSelect;

export async function winbackRuleOf(db: Executor, siteId: number): Promise<WinbackRuleRow | undefined> {
  const [row] = await db.select().from(winbackRules).where(eq(winbackRules.siteId, siteId));
  return row;
}

export async function activeWinbackRules(db: Executor): Promise<WinbackRuleRow[]> {
  return db.select().from(winbackRules).where(eq(winbackRules.active, true));
}

export async function saveWinbackRule(db: Executor, rule: WinbackRuleRow): Promise<WinbackRuleRow> {
  const { siteId, ...values } = rule;
  const [row] = await db
    .insert(winbackRules)
    .values(rule)
    .onConflictDoUpdate({ target: winbackRules.siteId, set: values })
    .returning();
  return row!;
}

/**
 * Members of the site due a win-back offer: active with a confirmed address that takes mail, not
 * fictional, inactive since `inactiveBefore`, and with no offer since `lastOfferBefore`; with the
 * number of offers they had (the next one's round). Oldest activity first, a batch at a time.
 */
export async function winbackCandidates(
  db: Executor,
  input: { siteId: number; inactiveBefore: Date; lastOfferBefore: Date; limit: number },
) {
  const offers = db
    .select({
      userId: winbackOffers.userId,
      rounds: sql<number>`max(${winbackOffers.round})`.as('rounds'),
      lastSent: sql<Date>`max(${winbackOffers.sentAt})`.as('last_sent'),
    })
    .from(winbackOffers)
    .groupBy(winbackOffers.userId)
    .as('offers');
  return db
    .select({ userId: users.id, rounds: sql<number>`coalesce(${offers.rounds}, 0)::int` })
    .from(users)
    .innerJoin(profiles, eq(profiles.userId, users.id))
    .leftJoin(offers, eq(offers.userId, users.id))
    .where(
      and(
        eq(users.siteId, input.siteId),
        eq(users.status, 'active'),
        sql`${users.email} is not null`,
        sql`${users.emailConfirmedAt} is not null`,
        sql`${users.notificationsDisabled} = '[]'::jsonb`,
        eq(profiles.fictional, false),
        lte(profiles.lastActiveAt, input.inactiveBefore),
        or(isNull(offers.lastSent), lte(offers.lastSent, input.lastOfferBefore)),
      ),
    )
    .orderBy(profiles.lastActiveAt)
    .limit(input.limit);
}

/** Takes the member's offer of this round; false when another instance took it first. */
export async function claimWinbackRound(
  db: Executor,
  offer: { siteId: number; userId: number; round: number; sentAt: Date },
): Promise<number | null> {
  const [row] = await db
    .insert(winbackOffers)
    .values(offer)
    .onConflictDoNothing({ target: [winbackOffers.userId, winbackOffers.round] })
    .returning({ id: winbackOffers.id });
  return row?.id ?? null;
}

export async function attachWinbackCode(db: Executor, offerId: number, codeId: number): Promise<void> {
  await db.update(winbackOffers).set({ discountCodeId: codeId }).where(eq(winbackOffers.id, offerId));
}

/** Offers sent on the sites and how many of their codes were used at checkout. */
export async function winbackResults(db: Executor, siteIds: number[]) {
  if (siteIds.length === 0) return [];
  return db
    .select({
      siteId: winbackOffers.siteId,
      sent: sql<number>`count(*)::int`,
      redeemed: sql<number>`count(*) filter (where exists (select 1 from ${discountRedemptions} r where r.discount_code_id = ${winbackOffers.discountCodeId}))::int`,
    })
    .from(winbackOffers)
    .where(inArray(winbackOffers.siteId, siteIds))
    .groupBy(winbackOffers.siteId);
}
