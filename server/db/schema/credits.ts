import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from './members.ts';
import { staff } from './staff.ts';

export const creditReasons = [
  'signup',
  'purchase',
  'message',
  'photo',
  'gift',
  'refund',
  'chargeback',
  'admin',
] as const;
export type CreditReason = (typeof creditReasons)[number];

/**
 * Every change of a member's credits. The balance on users is updated in the same transaction,
 * under a row lock; a reason with a reference (e.g. a payment id) can be booked only once.
 */
export const creditLedger = pgTable(
  'credit_ledger',
  {
    id: serial().primaryKey(),
    userId: integer()
      .notNull()
      .references(() => users.id),
    delta: integer().notNull(),
    balanceAfter: integer().notNull(),
    reason: text({ enum: creditReasons }).notNull(),
    reference: text(),
    /** The staff member behind a manual correction (reason admin), with the reason they gave. */
    staffId: integer().references(() => staff.id),
    note: text(),
    createdAt: timestamp({ withTimezone: true }).notNull(),
  },
  (table) => [
    index('credit_ledger_user_idx').on(table.userId, table.createdAt),
    uniqueIndex('credit_ledger_reason_reference_unique')
      .on(table.reason, table.reference)
      .where(sql`${table.reference} is not null`),
    check('credit_ledger_balance_not_negative', sql`${table.balanceAfter} >= 0`),
  ],
);
