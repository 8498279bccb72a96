import { randomBytes } from 'node:crypto';
import {
  createMollieClient,
  MandateMethod,
  type MollieClient,
  PaymentMethod as MollieMethod,
  type Payment,
  SequenceType,
} from '@mollie/api-client';
import { and, eq } from 'drizzle-orm';
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
  /** Refunds a paid payment in full; false when the provider refuses. The webhook then reports it. */
  refundPayment(id: string, amountCents: number, currency: string): Promise<boolean>;
  /** Only providers that debit a SEPA mandate themselves (Mollie's customer-mandate API). */
  createMandate?(input: CreateMandate): Promise<{ customerId: string; mandateId: string }>;
};

/** Methods whose first payment leaves a mandate for later charges (Mollie: card, PayPal, and SEPA via iDEAL/Bancontact/direct debit). */
export const mandateMethods = ['card', 'paypal', 'directdebit', 'ideal', 'bancontact'] as const;

const cents = (value: string | undefined) => (value ? Math.round(Number(value) * 100) : 0);

/** Mollie's payment statuses as ours (docs.mollie.com: open, pending, authorized, paid, canceled, expired, failed). */
export function mapMolliePayment(
  payment: Pick<Payment, 'id' | 'status' | 'amount' | 'amountRefunded' | 'amountChargedBack'>,
): ProviderPayment {
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

const mollieMethods: Record<PaymentMethod, MollieMethod> = {
  ideal: MollieMethod.ideal,
  bancontact: MollieMethod.bancontact,
  card: MollieMethod.creditcard,
  paypal: MollieMethod.paypal,
  applepay: MollieMethod.applepay,
  directdebit: MollieMethod.directdebit,
  sofort: 'sofort' as MollieMethod,
  giropay: 'giropay' as MollieMethod,
  eps: MollieMethod.eps,
  blik: 'blik' as MollieMethod,
  banktransfer: MollieMethod.banktransfer,
  paysafecard: MollieMethod.paysafecard,
};

export function createMollieProvider(
  apiKey: string,
  client: MollieClient = createMollieClient({ apiKey }),
): PaymentProvider {
  return {
    name: 'mollie',
    async createPayment(input) {
      if (input.mandateId && input.customer?.id) {
        // The SMS-confirmed SEPA mandate: Mollie debits it, no checkout (docs.mollie.com recurring payments).
        const payment = await client.payments.create({
          amount: { currency: input.currency, value: (input.amountCents / 100).toFixed(2) },
          description: input.description,
          webhookUrl: input.webhookUrl,
          method: MollieMethod.directdebit,
          customerId: input.customer.id,
          mandateId: input.mandateId,
          sequenceType: SequenceType.recurring,
          metadata: { orderId: input.orderId },
        });
        return { id: payment.id, checkoutUrl: input.redirectUrl, customerId: input.customer.id };
      }
      const customerId =
        input.customer && (mandateMethods as readonly string[]).includes(input.method)
          ? (input.customer.id ??
            (await client.customers.create({ name: input.customer.name, email: input.customer.email })).id)
          : undefined;
      const payment = await client.payments.create({
        amount: { currency: input.currency, value: (input.amountCents / 100).toFixed(2) },
        description: input.description,
        redirectUrl: input.redirectUrl,
        webhookUrl: input.webhookUrl,
        method: mollieMethods[input.method],
        metadata: { orderId: input.orderId },
        ...(customerId ? { customerId, sequenceType: SequenceType.first } : {}),
      });
      return {
        id: payment.id,
        checkoutUrl: payment.getCheckoutUrl() ?? input.redirectUrl,
        ...(customerId ? { customerId } : {}),
      };
    },
    async createRecurringPayment(input) {
      const payment = await client.payments.create({
        amount: { currency: input.currency, value: (input.amountCents / 100).toFixed(2) },
        description: input.description,
        webhookUrl: input.webhookUrl,
        customerId: input.customerId,
        sequenceType: SequenceType.recurring,
        metadata: { orderId: input.orderId },
      });
      return { id: payment.id };
    },
    async createMandate(input) {
      const customerId =
        input.customer.id ??
        (
          await client.customers.create({
            name: input.customer.name,
            email: input.customer.email,
            // Parallel hand-overs of one mandate (two orders at once) make one customer and one mandate.
            idempotencyKey: `customer-${input.reference}`,
          })
        ).id;
      const mandate = await client.customerMandates.create({
        customerId,
        method: MandateMethod.directdebit,
        consumerName: input.consumerName,
        consumerAccount: input.consumerAccount,
        signatureDate: input.signatureDate,
        mandateReference: input.reference,
        idempotencyKey: `mandate-${input.reference}`,
      });
      return { customerId, mandateId: mandate.id };
    },
    async getPayment(id) {
      try {
        return mapMolliePayment(await client.payments.get(id));
      } catch (error) {
        // Not found is an answer (no such payment: nothing to settle); anything else is Mollie or the
        // network failing, which must reach the webhook as a 503 so that Mollie tries again.
        const status = (error as { statusCode?: unknown }).statusCode;
        if (status === 404 || status === 410) return null;
        throw new ProviderUnavailableError('mollie', error);
      }
    },
    async cancelPayment(id) {
      try {
        // Mollie cancels only payments whose isCancelable is true, and answers an error otherwise.
        await client.payments.cancel(id);
        return true;
      } catch {
        return false;
      }
    },
    async refundPayment(id, amountCents, currency) {
      try {
        await client.paymentRefunds.create({
          paymentId: id,
          amount: { currency, value: (amountCents / 100).toFixed(2) },
        });
        return true;
      } catch {
        return false;
      }
    },
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
        status: row.status as Payment['status'],
        amount: { value: (row.amountCents / 100).toFixed(2), currency: row.currency },
        ...(row.refundedCents > 0
          ? { amountRefunded: { value: (row.refundedCents / 100).toFixed(2), currency: row.currency } }
          : {}),
      } as Payment);
    },
    async cancelPayment(id) {
      const updated = await db
        .update(testPayments)
        .set({ status: 'canceled' })
        .where(and(eq(testPayments.id, id), eq(testPayments.status, 'open')))
        .returning({ id: testPayments.id });
      return updated.length > 0;
    },
    /** Test mode: a paid payment is refunded at once, as a provider's test mode does. */
    async refundPayment(id, amountCents) {
      const updated = await db
        .update(testPayments)
        .set({ refundedCents: amountCents })
        .where(and(eq(testPayments.id, id), eq(testPayments.status, 'paid')))
        .returning({ id: testPayments.id });
      return updated.length > 0;
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
