import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { bundles } from './catalog.ts';
import { users } from './members.ts';
import { sites } from './sites.ts';

/**
 * `refunding`: the back office asked the provider for a refund and its answer (or webhook) is not
 * settled yet; the status is taken by a conditional update before the provider is called, so one
 * order is refunded at most once however many requests race (decision 034).
 */
export const orderStatuses = [
  'pending',
  'completed',
  'failed',
  'cancelled',
  'refunding',
  'refunded',
] as const;
export type OrderStatus = (typeof orderStatuses)[number];

/** A bundle bought through a payment provider; credits move only when the provider says paid. */
export const orders = pgTable(
  'orders',
  {
    id: serial().primaryKey(),
    userId: integer()
      .notNull()
      .references(() => users.id),
    siteId: integer()
      .notNull()
      .references(() => sites.id),
    bundleId: integer()
      .notNull()
      .references(() => bundles.id),
    credits: integer().notNull(),
    /** What was charged, after any discount (integer cents). */
    amountCents: integer().notNull(),
    listPriceCents: integer().notNull(),
    currency: text().notNull(),
    country: text().notNull(),
    paymentMethod: text().notNull(),
    discountCodeId: integer(),
    /**
     * The order holds its once-per-member code while pending, completed, refunding or refunded: a partial
     * unique index lets one such order per member and code exist; failing or cancelling frees it.
     */
    discountReserved: boolean().notNull().default(false),
    provider: text().notNull(),
    providerPaymentId: text(),
    status: text({ enum: orderStatuses }).notNull().default('pending'),
    createdAt: timestamp({ withTimezone: true }).notNull(),
    settledAt: timestamp({ withTimezone: true }),
    /** When staff asked the provider for its refund (the re-check retries a refund left unanswered). */
    refundRequestedAt: timestamp({ withTimezone: true }),
    /** The amount staff refund (integer cents; null: the whole amount), set with `refunding`. */
    refundCents: integer(),
    /** The credits that refund takes back (null: all the order's credits), set with `refunding`. */
    refundCredits: integer(),
    /** Credits taken back so far by a refund or a chargeback: a later chargeback takes only the rest. */
    reversedCredits: integer().notNull().default(0),
    /** When the provider reported a chargeback: its credits are reversed once, from this mark on. */
    chargedBackAt: timestamp({ withTimezone: true }),
    /**
     * The VAT of the invoice, fixed when the order is paid (the buyer country's rate then, in
     * hundredths of a percent: 2550 is 25.5 %) with the amounts it splits the charge into (integer
     * cents): a later change of the rate table never changes an invoice. Null on orders paid
     * before it was stored (their invoice computes it with today's table) and on unpaid ones.
     */
    vatRateBasisPoints: integer(),
    netCents: integer(),
    vatCents: integer(),
    grossCents: integer(),
  },
  (table) => [
    uniqueIndex('orders_provider_payment_unique').on(table.provider, table.providerPaymentId),
    index('orders_user_idx').on(table.userId, table.createdAt),
    // The dashboard's orders and revenue per site and day.
    index('orders_site_settled_idx')
      .on(table.siteId, table.settledAt)
      .where(sql`${table.status} = 'completed'`),
    // The numbers' refunds, chargebacks and partly refunded orders.
    index('orders_site_reversed_idx').on(table.siteId).where(sql`${table.status} = 'refunded'`),
    uniqueIndex('orders_discount_once_unique')
      .on(table.discountCodeId, table.userId)
      .where(
        sql`${table.discountReserved} and ${table.status} in ('pending', 'completed', 'refunding', 'refunded')`,
      ),
    check('orders_amount_not_negative', sql`${table.amountCents} >= 0`),
    check(
      'orders_refund_within_amount',
      sql`${table.refundCents} is null or (${table.refundCents} > 0 and ${table.refundCents} <= ${table.amountCents})`,
    ),
    check(
      'orders_vat_whole',
      sql`(${table.vatRateBasisPoints} is null and ${table.netCents} is null and ${table.vatCents} is null and ${table.grossCents} is null) or (${table.vatRateBasisPoints} >= 0 and ${table.netCents} is not null and ${table.vatCents} is not null and ${table.netCents} + ${table.vatCents} = ${table.grossCents})`,
    ),
    check(
      'orders_refund_credits_within_order',
      sql`${table.refundCredits} is null or (${table.refundCredits} >= 0 and ${table.refundCredits} <= ${table.credits})`,
    ),
  ],
);

/** What made the payments service look at an order's payment again. */
export const orderEventSources = ['webhook', 'checkout', 'recheck', 'refund', 'cancel', 'recurring'] as const;
export type OrderEventSource = (typeof orderEventSources)[number];

/**
 * Every provider report on an order, as the settlement path received it: the provider's status and
 * amounts, and the order's status before and after (the back office's webhook history).
 */
export const orderEvents = pgTable(
  'order_events',
  {
    id: serial().primaryKey(),
    orderId: integer()
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    source: text({ enum: orderEventSources }).notNull(),
    providerStatus: text().notNull(),
    refundedCents: integer().notNull().default(0),
    chargedBackCents: integer().notNull().default(0),
    statusBefore: text({ enum: orderStatuses }).notNull(),
    statusAfter: text({ enum: orderStatuses }).notNull(),
    at: timestamp({ withTimezone: true }).notNull(),
  },
  (table) => [index('order_events_order_idx').on(table.orderId, table.id)],
);

export const discountValidities = ['once_per_user', 'unlimited'] as const;

/** Discount codes (spec §3): per country or member, expiry, percentage, minimum order, methods. */
export const discountCodes = pgTable(
  'discount_codes',
  {
    id: serial().primaryKey(),
    code: text().notNull(),
    /** A code of one site works there only; a code of no site works on every site. */
    siteId: integer().references(() => sites.id, { onDelete: 'cascade' }),
    country: text(),
    userId: integer().references(() => users.id),
    expires: timestamp({ withTimezone: true }),
    valuePercentage: integer().notNull(),
    currency: text(),
    minimumOrderValue: integer().notNull().default(0),
    status: text({ enum: ['active', 'inactive'] })
      .notNull()
      .default('active'),
    validity: text({ enum: discountValidities }).notNull().default('once_per_user'),
    paymentmethods: jsonb().$type<string[]>().notNull().default([]),
    createdAt: timestamp({ withTimezone: true }).notNull(),
  },
  (table) => [
    uniqueIndex('discount_codes_code_unique').on(sql`upper(${table.code})`),
    check('discount_codes_percentage', sql`${table.valuePercentage} between 1 and 100`),
  ],
);

/** A code used by a member on a completed order; once-per-member codes allow one. */
export const discountRedemptions = pgTable(
  'discount_redemptions',
  {
    discountCodeId: integer()
      .notNull()
      .references(() => discountCodes.id),
    userId: integer()
      .notNull()
      .references(() => users.id),
    orderId: integer()
      .notNull()
      .references(() => orders.id),
    createdAt: timestamp({ withTimezone: true }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.discountCodeId, table.userId, table.orderId] })],
);

/** The built-in test provider's own book of payments (what a real provider keeps on its side). */
export const testPayments = pgTable('test_payments', {
  id: text().primaryKey(),
  amountCents: integer().notNull(),
  currency: text().notNull(),
  description: text().notNull(),
  redirectUrl: text().notNull(),
  status: text({ enum: ['open', 'paid', 'failed', 'canceled', 'expired'] })
    .notNull()
    .default('open'),
  /** What the back office refunded of it (the provider's amountRefunded). */
  refundedCents: integer().notNull().default(0),
  /** The idempotency key of the last refund, so that its repeat is answered and not booked again. */
  refundKey: text(),
  createdAt: timestamp({ withTimezone: true }).notNull(),
});

/** A SEPA direct-debit mandate, confirmed by a code sent by SMS. */
export const directDebitMandates = pgTable(
  'direct_debit_mandates',
  {
    id: serial().primaryKey(),
    userId: integer()
      .notNull()
      .references(() => users.id),
    accountHolder: text().notNull(),
    iban: text().notNull(),
    phone: text().notNull(),
    status: text({ enum: ['pending', 'active', 'revoked'] })
      .notNull()
      .default('pending'),
    codeHash: text(),
    codeExpiresAt: timestamp({ withTimezone: true }),
    codeAttempts: integer().notNull().default(0),
    createdAt: timestamp({ withTimezone: true }).notNull(),
    confirmedAt: timestamp({ withTimezone: true }),
    /** The mandate handed to the payment provider (Mollie `mdt_…`) after the SMS confirmation. */
    providerMandateId: text(),
  },
  (table) => [index('direct_debit_mandates_user_idx').on(table.userId, table.status)],
);
