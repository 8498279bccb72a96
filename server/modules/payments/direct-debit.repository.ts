import { and, desc, eq, gte, sql } from 'drizzle-orm';
import type { Executor } from '#server/db/client.ts';
import { directDebitMandates, orders } from '#server/db/schema/payments.ts';

export type MandateRow = typeof directDebitMandates.$inferSelect;

export async function latestMandate(db: Executor, userId: number): Promise<MandateRow | undefined> {
  const [row] = await db
    .select()
    .from(directDebitMandates)
    .where(eq(directDebitMandates.userId, userId))
    .orderBy(desc(directDebitMandates.id))
    .limit(1);
  return row;
}

export async function insertMandate(
  db: Executor,
  mandate: typeof directDebitMandates.$inferInsert,
): Promise<MandateRow> {
  const [row] = await db.insert(directDebitMandates).values(mandate).returning();
  return row!;
}

export async function lockMandate(db: Executor, id: number, userId: number): Promise<MandateRow | undefined> {
  const [row] = await db
    .select()
    .from(directDebitMandates)
    .where(and(eq(directDebitMandates.id, id), eq(directDebitMandates.userId, userId)))
    .for('update');
  return row;
}

/** Makes one mandate the member's active one; an earlier active mandate is revoked. */
export async function activateMandate(
  db: Executor,
  id: number,
  userId: number,
  at: Date,
): Promise<MandateRow> {
  await db
    .update(directDebitMandates)
    .set({ status: 'revoked' })
    .where(and(eq(directDebitMandates.userId, userId), eq(directDebitMandates.status, 'active')));
  const [row] = await db
    .update(directDebitMandates)
    .set({ status: 'active', codeHash: null, confirmedAt: at })
    .where(eq(directDebitMandates.id, id))
    .returning();
  return row!;
}

/** Counts one try of the SMS code; call it under the mandate's row lock, before comparing. */
export async function countCodeTry(db: Executor, id: number): Promise<void> {
  await db
    .update(directDebitMandates)
    .set({ codeAttempts: sql`${directDebitMandates.codeAttempts} + 1` })
    .where(eq(directDebitMandates.id, id));
}

/** What a member ordered by direct debit since a moment (pending and completed orders), in cents. */
export async function directDebitTotalSince(db: Executor, userId: number, since: Date): Promise<number> {
  const [row] = await db
    .select({ total: sql<number>`coalesce(sum(${orders.amountCents}), 0)::int` })
    .from(orders)
    .where(
      and(
        eq(orders.userId, userId),
        eq(orders.paymentMethod, 'directdebit'),
        sql`${orders.status} in ('pending', 'completed')`,
        gte(orders.createdAt, since),
      ),
    );
  return row?.total ?? 0;
}

export async function setProviderMandate(db: Executor, id: number, providerMandateId: string): Promise<void> {
  await db.update(directDebitMandates).set({ providerMandateId }).where(eq(directDebitMandates.id, id));
}
