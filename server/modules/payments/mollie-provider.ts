import {
  createMollieClient,
  MandateMethod,
  type MollieClient,
  PaymentMethod as MollieMethod,
  SequenceType,
} from '@mollie/api-client';
import type { PaymentMethod } from './payment-methods.ts';
import {
  mandateMethods,
  mapMolliePayment,
  type PaymentProvider,
  ProviderUnavailableError,
} from './providers.ts';

/**
 * The Mollie adapter (docs.mollie.com). Its own module so that its client library loads only where
 * PAYMENT_PROVIDER=mollie (~90 ms of a start otherwise).
 */

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

/**
 * Mollie's own answer to a request it will not do (a 4xx but 429): final. Anything else — a 5xx, a
 * rate limit, the network — is Mollie not answering, and the request may or may not have happened.
 */
function isRefusal(error: unknown): boolean {
  const status = (error as { statusCode?: unknown }).statusCode;
  return typeof status === 'number' && status >= 400 && status < 500 && status !== 429;
}

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
      } catch (error) {
        // Refused: not cancelable any more (paid meanwhile, say).
        if (isRefusal(error)) return false;
        throw new ProviderUnavailableError('mollie', error);
      }
    },
    async refundPayment({ paymentId, amountCents, currency, idempotencyKey }) {
      try {
        await client.paymentRefunds.create({
          paymentId,
          amount: { currency, value: (amountCents / 100).toFixed(2) },
          // Mollie answers a repeat of the key with the first refund instead of refunding twice.
          idempotencyKey,
        });
        return 'refunded';
      } catch (error) {
        // Refused: nothing left to refund, or not refundable. Anything else may have refunded it:
        // a retry carries the same key.
        if (isRefusal(error)) return 'refused';
        throw new ProviderUnavailableError('mollie', error);
      }
    },
  };
}
