import { desc, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Executor } from '#server/db/client.ts';
import { type CreditReason, creditLedger } from '#server/db/schema/credits.ts';
import { users } from '#server/db/schema/members.ts';

const bookedChangeSchema = z.object({
  rows: z.array(z.object({ before: z.number().nullable(), after: z.number().nullable() })),
});

/**
 * One change of a balance in one statement: the user's row is locked and read, the ledger entry is
 * written unless the balance would go below zero or its reference was booked before (the partial
 * unique index on reason and reference), and the balance follows the entry. `before` is the balance
 * read (null: no such user); `after` is null when nothing was booked.
 */
export async function bookChange(
  tx: Executor,
  entry: {
    userId: number;
    delta: number;
    reason: CreditReason;
    reference: string | null;
    staffId: number | null;
    note: string | null;
    at: Date;
  },
): Promise<{ before: number | null; after: number | null }> {
  const { rows } = bookedChangeSchema.parse(
    await tx.execute(sql`with current as (
      select ${users.credits} as credits from ${users} where ${users.id} = ${entry.userId} for update
    ), booked as (
      insert into ${creditLedger} (user_id, delta, balance_after, reason, reference, staff_id, note, created_at)
      select ${entry.userId}::int, ${entry.delta}::int, current.credits + ${entry.delta}::int, ${entry.reason},
        ${entry.reference}::text, ${entry.staffId}::int, ${entry.note}::text, ${entry.at.toISOString()}::timestamptz
      from current where current.credits + ${entry.delta}::int >= 0
      on conflict (reason, reference) where reference is not null do nothing
      returning balance_after
    ), balance as (
      update ${users} set credits = booked.balance_after from booked where ${users.id} = ${entry.userId}
      returning ${users.id}
    )
    select (select credits from current)::int as before, (select balance_after from booked)::int as after`),
  );
  return rows[0] ?? { before: null, after: null };
}

export async function ledgerOf(db: Executor, userId: number, limit = 100) {
  return db
    .select()
    .from(creditLedger)
    .where(eq(creditLedger.userId, userId))
    .orderBy(desc(creditLedger.createdAt), desc(creditLedger.id))
    .limit(limit);
}
