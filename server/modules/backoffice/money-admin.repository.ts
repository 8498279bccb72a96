import { and, asc, count, desc, eq, gte, inArray, lt, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '#server/db/client.ts';
import { bundlePrices, bundles, gifts } from '#server/db/schema/catalog.ts';
import { messages } from '#server/db/schema/chats.ts';
import { creditLedger } from '#server/db/schema/credits.ts';
import { profiles, users } from '#server/db/schema/members.ts';
import {
  discountCodes,
  discountRedemptions,
  type OrderStatus,
  orderEvents,
  orders,
} from '#server/db/schema/payments.ts';
import { sites } from '#server/db/schema/sites.ts';

export type BundleRow = typeof bundles.$inferSelect;
export type BundlePriceRow = typeof bundlePrices.$inferSelect;
export type GiftRow = typeof gifts.$inferSelect;
export type DiscountCodeRow = typeof discountCodes.$inferSelect;
export type OrderRow = typeof orders.$inferSelect;
export type OrderEventRow = typeof orderEvents.$inferSelect;

// Sites (as the offers name them)

/** Every site's name by id: the offers of one site show which. */
export async function siteNames(db: Executor): Promise<Map<number, string>> {
  const rows = await db.select({ id: sites.id, name: sites.name }).from(sites);
  return new Map(rows.map((row) => [row.id, row.name]));
}

// Bundles

export async function listBundles(db: Executor): Promise<BundleRow[]> {
  return db.select().from(bundles).orderBy(asc(bundles.position), asc(bundles.id));
}

export async function lockBundle(db: Executor, id: number): Promise<BundleRow | undefined> {
  const [row] = await db.select().from(bundles).where(eq(bundles.id, id)).for('update');
  return row;
}

export async function pricesOf(db: Executor, bundleIds: number[]): Promise<BundlePriceRow[]> {
  if (bundleIds.length === 0) return [];
  return db
    .select()
    .from(bundlePrices)
    .where(inArray(bundlePrices.bundleId, bundleIds))
    .orderBy(asc(bundlePrices.country));
}

/** Completed (or later refunded) orders per bundle. */
export async function paidOrdersPerBundle(db: Executor): Promise<Map<number, number>> {
  const rows = await db
    .select({ bundleId: orders.bundleId, value: count() })
    .from(orders)
    .where(inArray(orders.status, ['completed', 'refunded']))
    .groupBy(orders.bundleId);
  return new Map(rows.map((row) => [row.bundleId, row.value]));
}

export async function insertBundle(db: Executor, bundle: typeof bundles.$inferInsert): Promise<BundleRow> {
  const [row] = await db.insert(bundles).values(bundle).returning();
  return row!;
}

export async function updateBundle(
  db: Executor,
  id: number,
  changes: Partial<Omit<typeof bundles.$inferInsert, 'id'>>,
): Promise<void> {
  if (Object.keys(changes).length === 0) return;
  await db.update(bundles).set(changes).where(eq(bundles.id, id));
}

export async function upsertBundlePrice(db: Executor, price: BundlePriceRow): Promise<void> {
  await db
    .insert(bundlePrices)
    .values(price)
    .onConflictDoUpdate({
      target: [bundlePrices.bundleId, bundlePrices.country],
      set: { amountCents: price.amountCents, currency: price.currency },
    });
}

export async function deleteBundlePrice(db: Executor, bundleId: number, country: string): Promise<boolean> {
  const removed = await db
    .delete(bundlePrices)
    .where(and(eq(bundlePrices.bundleId, bundleId), eq(bundlePrices.country, country)))
    .returning({ country: bundlePrices.country });
  return removed.length > 0;
}

// Gifts

export async function listGifts(db: Executor): Promise<GiftRow[]> {
  return db.select().from(gifts).orderBy(asc(gifts.position), asc(gifts.id));
}

export async function lockGift(db: Executor, id: number): Promise<GiftRow | undefined> {
  const [row] = await db.select().from(gifts).where(eq(gifts.id, id)).for('update');
  return row;
}

export async function findGiftBySlug(db: Executor, slug: string): Promise<GiftRow | undefined> {
  const [row] = await db.select().from(gifts).where(eq(gifts.slug, slug)).limit(1);
  return row;
}

export async function giftsSent(db: Executor): Promise<Map<number, number>> {
  const rows = await db
    .select({ giftId: messages.giftId, value: count() })
    .from(messages)
    .where(eq(messages.kind, 'gift'))
    .groupBy(messages.giftId);
  return new Map(rows.flatMap((row) => (row.giftId === null ? [] : [[row.giftId, row.value] as const])));
}

export async function insertGift(db: Executor, gift: typeof gifts.$inferInsert): Promise<GiftRow> {
  const [row] = await db.insert(gifts).values(gift).returning();
  return row!;
}

export async function updateGift(
  db: Executor,
  id: number,
  changes: Partial<Omit<typeof gifts.$inferInsert, 'id'>>,
): Promise<GiftRow | undefined> {
  if (Object.keys(changes).length === 0) return lockGift(db, id);
  const [row] = await db.update(gifts).set(changes).where(eq(gifts.id, id)).returning();
  return row;
}

// Discount codes

export async function listDiscountCodes(db: Executor): Promise<DiscountCodeRow[]> {
  return db.select().from(discountCodes).orderBy(desc(discountCodes.createdAt), desc(discountCodes.id));
}

export async function lockDiscountCode(db: Executor, id: number): Promise<DiscountCodeRow | undefined> {
  const [row] = await db.select().from(discountCodes).where(eq(discountCodes.id, id)).for('update');
  return row;
}

export async function findDiscountCodeByCode(
  db: Executor,
  code: string,
): Promise<DiscountCodeRow | undefined> {
  const [row] = await db
    .select()
    .from(discountCodes)
    .where(sql`upper(${discountCodes.code}) = ${code.toUpperCase()}`)
    .limit(1);
  return row;
}

/** Redemptions and completed orders per code. */
export async function discountUse(
  db: Executor,
  ids: number[],
): Promise<Map<number, { redemptions: number; paidOrders: number }>> {
  const result = new Map(ids.map((id) => [id, { redemptions: 0, paidOrders: 0 }]));
  if (ids.length === 0) return result;
  const [redeemed, paid] = await Promise.all([
    db
      .select({ id: discountRedemptions.discountCodeId, value: count() })
      .from(discountRedemptions)
      .where(inArray(discountRedemptions.discountCodeId, ids))
      .groupBy(discountRedemptions.discountCodeId),
    db
      .select({ id: orders.discountCodeId, value: count() })
      .from(orders)
      .where(and(inArray(orders.discountCodeId, ids), eq(orders.status, 'completed')))
      .groupBy(orders.discountCodeId),
  ]);
  for (const row of redeemed) result.get(row.id)!.redemptions = row.value;
  for (const row of paid) if (row.id !== null) result.get(row.id)!.paidOrders = row.value;
  return result;
}

export async function insertDiscountCode(
  db: Executor,
  code: typeof discountCodes.$inferInsert,
): Promise<DiscountCodeRow> {
  const [row] = await db.insert(discountCodes).values(code).returning();
  return row!;
}

export async function updateDiscountCode(
  db: Executor,
  id: number,
  changes: Partial<Omit<typeof discountCodes.$inferInsert, 'id'>>,
): Promise<DiscountCodeRow | undefined> {
  if (Object.keys(changes).length === 0) return lockDiscountCode(db, id);
  const [row] = await db.update(discountCodes).set(changes).where(eq(discountCodes.id, id)).returning();
  return row;
}

// Members (as the codes and orders name them)

/** A real member's profile and user by profile id (fictional profiles are never members). */
export async function findRealMember(db: Executor, profileId: number) {
  const [row] = await db
    .select({ profileId: profiles.id, userId: users.id, name: profiles.name })
    .from(profiles)
    .innerJoin(users, eq(users.id, profiles.userId))
    .where(and(eq(profiles.id, profileId), eq(profiles.fictional, false)))
    .limit(1);
  return row;
}

export async function membersOfUsers(db: Executor, userIds: number[]) {
  if (userIds.length === 0)
    return new Map<number, { profileId: number; name: string; email: string | null }>();
  const rows = await db
    .select({ userId: users.id, profileId: profiles.id, name: profiles.name, email: users.email })
    .from(users)
    .innerJoin(profiles, eq(profiles.userId, users.id))
    .where(inArray(users.id, userIds));
  return new Map(rows.map((row) => [row.userId, row]));
}

// Orders

export type OrderFilters = {
  status?: OrderStatus | undefined;
  method?: string | undefined;
  siteId?: number | undefined;
  userId?: number | undefined;
  from?: Date | undefined;
  /** Exclusive. */
  before?: Date | undefined;
};

function orderConditions(filters: OrderFilters): SQL | undefined {
  const conditions: SQL[] = [];
  if (filters.status) conditions.push(eq(orders.status, filters.status));
  if (filters.method) conditions.push(eq(orders.paymentMethod, filters.method));
  if (filters.siteId !== undefined) conditions.push(eq(orders.siteId, filters.siteId));
  if (filters.userId !== undefined) conditions.push(eq(orders.userId, filters.userId));
  if (filters.from) conditions.push(gte(orders.createdAt, filters.from));
  if (filters.before) conditions.push(lt(orders.createdAt, filters.before));
  return conditions.length > 0 ? and(...conditions) : undefined;
}

const orderColumns = {
  order: orders,
  siteName: sites.name,
  code: discountCodes.code,
  codePercentage: discountCodes.valuePercentage,
};

export type OrderListRow = {
  order: OrderRow;
  siteName: string;
  code: string | null;
  codePercentage: number | null;
};

export async function listOrders(
  db: Executor,
  filters: OrderFilters,
  page: { limit: number; offset: number },
): Promise<{ rows: OrderListRow[]; total: number }> {
  const where = orderConditions(filters);
  const [rows, [totals]] = await Promise.all([
    db
      .select(orderColumns)
      .from(orders)
      .innerJoin(sites, eq(sites.id, orders.siteId))
      .leftJoin(discountCodes, eq(discountCodes.id, orders.discountCodeId))
      .where(where)
      .orderBy(desc(orders.createdAt), desc(orders.id))
      .limit(page.limit)
      .offset(page.offset),
    db.select({ value: count() }).from(orders).where(where),
  ]);
  return { rows, total: totals?.value ?? 0 };
}

export type OrderExportRow = OrderListRow & {
  profileId: number | null;
  name: string | null;
  email: string | null;
};

/** The filtered orders with their members, newest first, at most `limit` of them (the CSV download). */
export async function exportOrders(
  db: Executor,
  filters: OrderFilters,
  limit: number,
): Promise<OrderExportRow[]> {
  return db
    .select({ ...orderColumns, profileId: profiles.id, name: profiles.name, email: users.email })
    .from(orders)
    .innerJoin(sites, eq(sites.id, orders.siteId))
    .leftJoin(discountCodes, eq(discountCodes.id, orders.discountCodeId))
    .leftJoin(users, eq(users.id, orders.userId))
    .leftJoin(profiles, eq(profiles.userId, orders.userId))
    .where(orderConditions(filters))
    .orderBy(desc(orders.createdAt), desc(orders.id))
    .limit(limit);
}

export async function findOrderRow(db: Executor, id: number): Promise<OrderListRow | undefined> {
  const [row] = await db
    .select(orderColumns)
    .from(orders)
    .innerJoin(sites, eq(sites.id, orders.siteId))
    .leftJoin(discountCodes, eq(discountCodes.id, orders.discountCodeId))
    .where(eq(orders.id, id))
    .limit(1);
  return row;
}

export async function eventsOf(db: Executor, orderId: number): Promise<OrderEventRow[]> {
  return db.select().from(orderEvents).where(eq(orderEvents.orderId, orderId)).orderBy(asc(orderEvents.id));
}

/** The ledger's rows booked against a payment (purchase, refund, chargeback). */
export async function ledgerOfPayment(db: Executor, userId: number, reference: string) {
  return db
    .select({ reason: creditLedger.reason, delta: creditLedger.delta })
    .from(creditLedger)
    .where(and(eq(creditLedger.userId, userId), eq(creditLedger.reference, reference)));
}
