import { and, desc, eq } from 'drizzle-orm';
import type { Executor } from '#server/db/client.ts';
import { type CreditReason, creditLedger } from '#server/db/schema/credits.ts';
import { users } from '#server/db/schema/members.ts';

/** The balance, with the user's row locked until the transaction ends. */
export async function lockBalance(tx: Executor, userId: number): Promise<number | undefined> {
  const [row] = await tx
    .select({ credits: users.credits })
    .from(users)
    .where(eq(users.id, userId))
    .for('update');
  return row?.credits;
}

export async function ledgerEntryExists(
  tx: Executor,
  reason: CreditReason,
  reference: string,
): Promise<boolean> {
  const [row] = await tx
    .select({ id: creditLedger.id })
    .from(creditLedger)
    .where(and(eq(creditLedger.reason, reason), eq(creditLedger.reference, reference)))
    .limit(1);
  return row !== undefined;
}

export async function bookLedgerEntry(
  tx: Executor,
  entry: {
    userId: number;
    delta: number;
    balanceAfter: number;
    reason: CreditReason;
    reference: string | null;
    staffId?: number | null;
    note?: string | null;
    at: Date;
  },
): Promise<void> {
  await tx.insert(creditLedger).values({
    userId: entry.userId,
    delta: entry.delta,
    balanceAfter: entry.balanceAfter,
    reason: entry.reason,
    reference: entry.reference,
    staffId: entry.staffId ?? null,
    note: entry.note ?? null,
    createdAt: entry.at,
  });
  await tx.update(users).set({ credits: entry.balanceAfter }).where(eq(users.id, entry.userId));
}

export async function ledgerOf(db: Executor, userId: number, limit = 100) {
  return db
    .select()
    .from(creditLedger)
    .where(eq(creditLedger.userId, userId))
    .orderBy(desc(creditLedger.createdAt), desc(creditLedger.id))
    .limit(limit);
}
