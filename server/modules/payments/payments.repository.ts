import { and, asc, desc, eq, gt, isNotNull, lt, sql } from 'drizzle-orm';
import type { Executor } from '#server/db/client.ts';
import { bundlePrices, bundles } from '#server/db/schema/catalog.ts';
import { discountCodes, discountRedemptions, orderEvents, orders } from '#server/db/schema/payments.ts';

/**
 * The active bundles a site offers in a country: its own when it has any active, else those of no
 * site (decision 049). One statement.
 */
export async function bundlesFor(db: Executor, country: string, siteId: number) {
  const own = sql`exists (select 1 from ${bundles} as own where own.site_id = ${siteId} and own.active)`;
  return db
    .select({
      id: bundles.id,
      credits: bundles.credits,
      badge: bundles.badge,
      amountCents: bundlePrices.amountCents,
      currency: bundlePrices.currency,
    })
    .from(bundles)
    .innerJoin(bundlePrices, and(eq(bundlePrices.bundleId, bundles.id), eq(bundlePrices.country, country)))
    .where(
      and(
        eq(bundles.active, true),
        sql`case when ${own} then ${bundles.siteId} = ${siteId} else ${bundles.siteId} is null end`,
      ),
    )
    .orderBy(asc(bundles.position));
}

export async function insertOrder(db: Executor, order: typeof orders.$inferInsert) {
  const [row] = await db.insert(orders).values(order).returning();
  return row!;
}

export async function setProviderPayment(
  db: Executor,
  orderId: number,
  providerPaymentId: string,
): Promise<void> {
  await db.update(orders).set({ providerPaymentId }).where(eq(orders.id, orderId));
}

export async function findOrder(db: Executor, orderId: number) {
  const [row] = await db.select().from(orders).where(eq(orders.id, orderId)).limit(1);
  return row;
}

/**
 * Takes a completed order of this provider into `refunding` in one conditional update: of requests
 * that race for the same order exactly one gets the row back (decision 034).
 */
export async function beginRefund(
  db: Executor,
  orderId: number,
  provider: string,
  at: Date,
  part: { cents: number | null; credits: number | null },
) {
  const [row] = await db
    .update(orders)
    .set({ status: 'refunding', refundRequestedAt: at, refundCents: part.cents, refundCredits: part.credits })
    .where(
      and(
        eq(orders.id, orderId),
        eq(orders.status, 'completed'),
        eq(orders.provider, provider),
        isNotNull(orders.providerPaymentId),
      ),
    )
    .returning();
  return row;
}

/** A refund the provider refused or could not take: the order is completed again, to be retried. */
export async function abandonRefund(db: Executor, orderId: number): Promise<void> {
  await db
    .update(orders)
    .set({ status: 'completed', refundRequestedAt: null, refundCents: null, refundCredits: null })
    .where(and(eq(orders.id, orderId), eq(orders.status, 'refunding')));
}

/** Refunds asked before `before` that no provider report settled yet (the re-check asks again). */
export async function refundsAskedBefore(db: Executor, provider: string, before: Date, limit: number) {
  return db
    .select()
    .from(orders)
    .where(
      and(
        eq(orders.provider, provider),
        eq(orders.status, 'refunding'),
        isNotNull(orders.providerPaymentId),
        lt(orders.refundRequestedAt, before),
      ),
    )
    .orderBy(asc(orders.refundRequestedAt))
    .limit(limit);
}

export async function lockOrderByPayment(db: Executor, provider: string, providerPaymentId: string) {
  const [row] = await db
    .select()
    .from(orders)
    .where(and(eq(orders.provider, provider), eq(orders.providerPaymentId, providerPaymentId)))
    .for('update');
  return row;
}

export async function updateOrder(
  db: Executor,
  orderId: number,
  update: Partial<typeof orders.$inferInsert>,
): Promise<void> {
  await db.update(orders).set(update).where(eq(orders.id, orderId));
}

export async function ordersOf(db: Executor, userId: number) {
  return db
    .select()
    .from(orders)
    .where(eq(orders.userId, userId))
    .orderBy(desc(orders.createdAt), desc(orders.id))
    .limit(200);
}

export async function lastCompletedOrder(db: Executor, userId: number) {
  const [row] = await db
    .select()
    .from(orders)
    .where(and(eq(orders.userId, userId), eq(orders.status, 'completed')))
    .orderBy(desc(orders.settledAt))
    .limit(1);
  return row;
}

export async function findDiscountCode(db: Executor, code: string) {
  const [row] = await db
    .select()
    .from(discountCodes)
    .where(sql`upper(${discountCodes.code}) = ${code.trim().toUpperCase()}`)
    .limit(1);
  return row;
}

export async function redemptionsBy(db: Executor, codeId: number, userId: number): Promise<number> {
  const [row] = await db
    .select({ value: sql<number>`count(*)::int` })
    .from(discountRedemptions)
    .where(and(eq(discountRedemptions.discountCodeId, codeId), eq(discountRedemptions.userId, userId)));
  return row?.value ?? 0;
}

export async function insertRedemption(
  db: Executor,
  codeId: number,
  userId: number,
  orderId: number,
  at: Date,
) {
  await db
    .insert(discountRedemptions)
    .values({ discountCodeId: codeId, userId, orderId, createdAt: at })
    .onConflictDoNothing();
}

/** A member's pending orders that reserve a once-per-member code. */
export async function pendingOrdersHolding(db: Executor, codeId: number, userId: number) {
  return db
    .select({ id: orders.id, providerPaymentId: orders.providerPaymentId })
    .from(orders)
    .where(
      and(
        eq(orders.discountCodeId, codeId),
        eq(orders.userId, userId),
        eq(orders.discountReserved, true),
        eq(orders.status, 'pending'),
      ),
    );
}

/** An order whose payment was never created at the provider. */
export async function cancelPendingOrder(db: Executor, orderId: number, at: Date): Promise<void> {
  await db
    .update(orders)
    .set({ status: 'cancelled', settledAt: at })
    .where(and(eq(orders.id, orderId), eq(orders.status, 'pending')));
}

/** The order paid with a test payment, to check the payer. */
export async function findOrderByPayment(db: Executor, provider: string, providerPaymentId: string) {
  const [row] = await db
    .select()
    .from(orders)
    .where(and(eq(orders.provider, provider), eq(orders.providerPaymentId, providerPaymentId)))
    .limit(1);
  return row;
}

export async function insertDiscountCode(db: Executor, code: typeof discountCodes.$inferInsert) {
  await db.insert(discountCodes).values(code).onConflictDoNothing();
}

/** Provider payment ids of pending orders created before `before` (oldest first), to fetch again. */
export async function pendingPaymentsBefore(db: Executor, provider: string, before: Date, limit: number) {
  const rows = await db
    .select({ providerPaymentId: orders.providerPaymentId })
    .from(orders)
    .where(
      and(
        eq(orders.provider, provider),
        eq(orders.status, 'pending'),
        isNotNull(orders.providerPaymentId),
        lt(orders.createdAt, before),
      ),
    )
    .orderBy(asc(orders.createdAt))
    .limit(limit);
  return rows.flatMap((row) => (row.providerPaymentId ? [row.providerPaymentId] : []));
}

export async function countPendingOrders(db: Executor): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(orders)
    .where(eq(orders.status, 'pending'));
  return row?.count ?? 0;
}

/** One report on an order in its history (the back office shows it). */
export async function insertOrderEvent(db: Executor, event: typeof orderEvents.$inferInsert): Promise<void> {
  await db.insert(orderEvents).values(event);
}

/** A new code; null when its text is taken (the caller draws another). */
export async function insertNewDiscountCode(
  db: Executor,
  code: typeof discountCodes.$inferInsert,
): Promise<number | null> {
  const [row] = await db
    .insert(discountCodes)
    .values(code)
    .onConflictDoNothing()
    .returning({ id: discountCodes.id });
  return row?.id ?? null;
}

/** The member's newest personal code still open to them: active, not expired, not used by them. */
export async function openPersonalCode(db: Executor, userId: number, now: Date) {
  const [row] = await db
    .select()
    .from(discountCodes)
    .where(
      and(
        eq(discountCodes.userId, userId),
        eq(discountCodes.status, 'active'),
        gt(discountCodes.expires, now),
        sql`not exists (select 1 from ${discountRedemptions} r where r.discount_code_id = ${discountCodes.id} and r.user_id = ${userId})`,
      ),
    )
    .orderBy(desc(discountCodes.id))
    .limit(1);
  return row;
}
