import type { Executor, Transaction } from '#server/db/client.ts';
import type { CreditReason } from '#server/db/schema/credits.ts';
import { AppError } from '#server/lib/errors.ts';
import { bookChange, ledgerOf } from './credits.repository.ts';

export class InsufficientCreditsError extends AppError {
  override name = 'InsufficientCreditsError';
  constructor(details: { required: number; credits: number }) {
    super(402, 'insufficient_credits', details);
  }
}

export type CreditChange = {
  userId: number;
  /** Positive adds credits, negative spends them. */
  delta: number;
  reason: CreditReason;
  /** Makes the change idempotent: a second change with the same reason and reference books nothing. */
  reference?: string;
  /** A staff correction: who made it and why (shown in the back office's ledger). */
  staff?: { id: number; note: string };
  at: Date;
};

/**
 * Changes a balance through the ledger, inside the caller's transaction and under a row lock, so
 * parallel spends never overdraw and a reference (a payment id, a message id) is never booked twice.
 * One statement (bookChange). Returns the new balance, or null when the reference was booked before.
 * Every change of credits goes through here: purchases, refunds, sends, staff corrections.
 */
export async function changeCredits(tx: Transaction, change: CreditChange): Promise<number | null> {
  const { before, after } = await bookChange(tx, {
    userId: change.userId,
    delta: change.delta,
    reason: change.reason,
    reference: change.reference ?? null,
    staffId: change.staff?.id ?? null,
    note: change.staff?.note ?? null,
    at: change.at,
  });
  if (before === null) throw new Error(`No user ${change.userId}`);
  if (after !== null) return after;
  if (before + change.delta < 0)
    throw new InsufficientCreditsError({ required: -change.delta, credits: before });
  return null;
}

/** What each credit went on: the member's ledger, newest first. */
export async function creditsHistory(db: Executor, userId: number) {
  return (await ledgerOf(db, userId)).map((row) => ({
    delta: row.delta,
    balance_after: row.balanceAfter,
    reason: row.reason,
    created_at: row.createdAt.toISOString(),
  }));
}
