import { randomBytes } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type { Database } from '#server/db/client.ts';
import { testPayments } from '#server/db/schema/payments.ts';
import { AppError } from '#server/lib/errors.ts';
import type { PaymentMethod } from './payment-methods.ts';

/** The provider did not answer (or answered an error): try again later; a webhook answers 503 so that it is resent. */
export class ProviderUnavailableError extends AppError {
  override name = 'ProviderUnavailableError';
  constructor(
    readonly provider: string,
    override readonly cause?: unknown,
  ) {
    super(503, 'provider_unavailable');
  }
}

export type ProviderStatus = 'pending' | 'paid' | 'failed' | 'cancelled';

export type ProviderPayment = {
  id: string;
  status: ProviderStatus;
  amountCents: number;
  currency: string;
  refundedCents: number;
  chargedBackCents: number;
};

export type CreatePayment = {
  orderId: number;
  /** The member at the provider: a first payment with it stores a mandate for later charges. */
  customer?: { id: string | null; name: string; email: string };
  amountCents: number;
  currency: string;
  description: string;
  method: PaymentMethod;
  redirectUrl: string;
  webhookUrl: string;
  /** A SEPA mandate at the provider (with customer.id): the payment debits it without a checkout. */
  mandateId?: string;
};

/** A SEPA direct-debit mandate, confirmed by the member's SMS code, handed to the provider. */
export type CreateMandate = {
  customer: { id: string | null; name: string; email: string };
  consumerName: string;
  consumerAccount: string;
  /** YYYY-MM-DD: the day the member confirmed the code. */
  signatureDate: string;
  reference: string;
};

/** One refund of one payment; the key makes a repeated request (a retry after a time-out) a no-op. */
export type RefundRequest = {
  paymentId: string;
  amountCents: number;
  currency: string;
  idempotencyKey: string;
};

/** A payment provider: the built-in test mode, or Mollie. Settlement always re-fetches the payment. */
export type PaymentProvider = {
  name: 'test' | 'mollie';
  createPayment(input: CreatePayment): Promise<{ id: string; checkoutUrl: string; customerId?: string }>;
  /** Charges the customer's stored mandate without a checkout (repeat orders). */
  createRecurringPayment(
    input: Omit<CreatePayment, 'method' | 'redirectUrl'> & { customerId: string },
  ): Promise<{ id: string }>;
  getPayment(id: string): Promise<ProviderPayment | null>;
  /** Cancels an open payment so that it can never be paid; false when the provider refuses. */
  cancelPayment(id: string): Promise<boolean>;
  /**
   * Refunds a paid payment; `refused` when the provider declines it (already refunded, say). Throws
   * ProviderUnavailableError when the provider cannot be reached: the refund may or may not have
   * happened, so a retry must carry the same idempotency key. The webhook then reports it.
   */
  refundPayment(refund: RefundRequest): Promise<'refunded' | 'refused'>;
  /** Only providers that debit a SEPA mandate themselves (Mollie's customer-mandate API). */
  createMandate?(input: CreateMandate): Promise<{ customerId: string; mandateId: string }>;
};

/** Methods whose first payment leaves a mandate for later charges (Mollie: card, PayPal, and SEPA via iDEAL/Bancontact/direct debit). */
export const mandateMethods = ['card', 'paypal', 'directdebit', 'ideal', 'bancontact'] as const;

const cents = (value: string | undefined) => (value ? Math.round(Number(value) * 100) : 0);

type Amount = { value: string; currency: string };
/** What settlement reads of a payment as Mollie describes it; the test mode keeps its books alike. */
export type MolliePaymentFields = {
  id: string;
  status: string;
  amount: Amount;
  amountRefunded?: Amount | undefined;
  amountChargedBack?: Amount | undefined;
};

/** Mollie's payment statuses as ours (docs.mollie.com: open, pending, authorized, paid, canceled, expired, failed). */
export function mapMolliePayment(payment: MolliePaymentFields): ProviderPayment {
  const status: ProviderStatus =
    payment.status === 'paid'
      ? 'paid'
      : payment.status === 'failed'
        ? 'failed'
        : payment.status === 'canceled' || payment.status === 'expired'
          ? 'cancelled'
          : 'pending';
  return {
    id: payment.id,
    status,
    amountCents: cents(payment.amount.value),
    currency: payment.amount.currency,
    refundedCents: cents(payment.amountRefunded?.value),
    chargedBackCents: cents(payment.amountChargedBack?.value),
  };
}

/**
 * The built-in test mode: a checkout page where the payer chooses paid, failed or cancelled, as a
 * real provider's test mode does. Its payments live in their own table, like a provider's books.
 */
export function createTestProvider(db: Database): PaymentProvider & {
  setStatus(id: string, status: 'paid' | 'failed' | 'canceled'): Promise<boolean>;
  find(id: string): Promise<typeof testPayments.$inferSelect | undefined>;
} {
  return {
    name: 'test',
    async createPayment(input) {
      const id = `tst_${randomBytes(10).toString('hex')}`;
      await db.insert(testPayments).values({
        id,
        amountCents: input.amountCents,
        currency: input.currency,
        description: input.description,
        redirectUrl: input.redirectUrl,
        createdAt: new Date(),
      });
      const customerId = input.customer
        ? (input.customer.id ?? `tcst_${randomBytes(6).toString('hex')}`)
        : undefined;
      return { id, checkoutUrl: `/payments/test/${id}`, ...(customerId ? { customerId } : {}) };
    },
    /** Test mode: a charge on a stored mandate succeeds at once, as a test card would. */
    async createRecurringPayment(input) {
      const id = `tst_${randomBytes(10).toString('hex')}`;
      await db.insert(testPayments).values({
        id,
        amountCents: input.amountCents,
        currency: input.currency,
        description: input.description,
        redirectUrl: input.webhookUrl,
        status: 'paid',
        createdAt: new Date(),
      });
      return { id };
    },
    async getPayment(id) {
      const [row] = await db.select().from(testPayments).where(eq(testPayments.id, id));
      if (!row) return null;
      return mapMolliePayment({
        id: row.id,
        status: row.status,
        amount: { value: (row.amountCents / 100).toFixed(2), currency: row.currency },
        ...(row.refundedCents > 0
          ? { amountRefunded: { value: (row.refundedCents / 100).toFixed(2), currency: row.currency } }
          : {}),
      });
    },
    async cancelPayment(id) {
      const updated = await db
        .update(testPayments)
        .set({ status: 'canceled' })
        .where(and(eq(testPayments.id, id), eq(testPayments.status, 'open')))
        .returning({ id: testPayments.id });
      return updated.length > 0;
    },
    /**
     * Test mode: a paid payment is refunded at once, as a provider's test mode does; like Mollie it
     * refuses to refund more than was paid, and a repeat of the same key answers as the first did.
     */
    async refundPayment({ paymentId, amountCents, idempotencyKey }) {
      const updated = await db
        .update(testPayments)
        .set({
          refundedCents: sql`${testPayments.refundedCents} + ${amountCents}`,
          refundKey: idempotencyKey,
        })
        .where(
          and(
            eq(testPayments.id, paymentId),
            eq(testPayments.status, 'paid'),
            sql`${testPayments.refundedCents} + ${amountCents} <= ${testPayments.amountCents}`,
            sql`${testPayments.refundKey} is distinct from ${idempotencyKey}`,
          ),
        )
        .returning({ id: testPayments.id });
      if (updated.length > 0) return 'refunded';
      const [row] = await db.select().from(testPayments).where(eq(testPayments.id, paymentId));
      return row?.refundKey === idempotencyKey ? 'refunded' : 'refused';
    },
    async setStatus(id, status) {
      const updated = await db
        .update(testPayments)
        .set({ status })
        .where(eq(testPayments.id, id))
        .returning({ id: testPayments.id });
      return updated.length > 0;
    },
    async find(id) {
      const [row] = await db.select().from(testPayments).where(eq(testPayments.id, id));
      return row;
    },
  };
}
