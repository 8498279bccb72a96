import { z } from 'zod';
import { errorBodySchema, idField, idParam, okSchema } from '../common.ts';
import { defineEndpoint } from '../endpoint.ts';
import {
  bundlesResponseSchema,
  createOrderSchema,
  discountCodeSchema,
  orderSchema,
  quoteQuerySchema,
  quoteSchema,
  repeatQuoteSchema,
  transactionSchema,
} from '../payments.ts';

export const webhookBodySchema = z.object({ id: z.string().min(1).max(100) });

export const checkoutResponseSchema = z.object({ order: orderSchema, checkout_url: z.string() });

export const repeatOrderBodySchema = z
  .object({ amount: z.number().int().nonnegative().optional() })
  .optional();

export const orderQuerySchema = z.object({ id: idParam });

export const orderResponseSchema = z.object({ order: orderSchema });

export const transactionsQuerySchema = z.object({ id: idParam.optional() });

export const transactionsResponseSchema = z.union([
  z.object({ transactions: z.array(orderSchema) }),
  z.object({ transaction: transactionSchema }),
]);

export type Transaction = z.infer<typeof transactionSchema>;

export const ledgerEntrySchema = z.object({
  delta: z.number().int(),
  balance_after: z.number().int(),
  reason: z.string(),
  created_at: z.string(),
});

export type LedgerEntry = z.infer<typeof ledgerEntrySchema>;

export const creditsLedgerResponseSchema = z.object({
  credits: z.number().int(),
  ledger: z.array(ledgerEntrySchema),
});

export const discountCodeQuerySchema = z.object({
  welcome: z.string().optional(),
  code: z.string().max(40).optional(),
});

export const mandateSchema = z.object({
  id: z.number().int(),
  status: z.enum(['pending', 'active', 'revoked']),
  iban: z.string().describe('masked'),
  account_holder: z.string(),
  phone: z.string().describe('masked'),
});

export type Mandate = z.infer<typeof mandateSchema>;

export const currentMandateResponseSchema = z.object({ mandate: mandateSchema.nullable() });

export const startMandateBodySchema = z.object({
  account_holder: z
    .string({ error: 'required' })
    .trim()
    .min(2, { error: 'required' })
    .max(100, { error: 'too_long' }),
  iban: z.string({ error: 'required' }).max(50, { error: 'invalid_iban' }),
  phone: z.string({ error: 'required' }).max(30, { error: 'invalid_phone' }),
});

export const mandateResponseSchema = z.object({ mandate: mandateSchema });

export const confirmMandateBodySchema = z.object({ mandate: idField, code: z.string().max(10) });

export const testPaymentQuerySchema = z.object({ payment: z.string().max(100) });

export const testPaymentSchema = z.object({
  id: z.string(),
  amount: z.number().int(),
  currency: z.string(),
  description: z.string(),
  status: z.string(),
});

export type TestPayment = z.infer<typeof testPaymentSchema>;

export const testPaymentResponseSchema = z.object({ payment: testPaymentSchema });

export const testPaymentBodySchema = z.object({
  payment: z.string().max(100),
  status: z.enum(['paid', 'failed', 'canceled']),
});

export const testPaymentResultSchema = z.object({ ok: z.literal(true), redirect: z.string() });

const errors = {
  403: errorBodySchema,
  404: errorBodySchema,
  409: errorBodySchema,
  422: errorBodySchema,
  429: errorBodySchema,
};

/** The payments calls: each route is registered from its declaration and the web client typed by it. */
export const paymentsEndpoints = {
  postPaymentWebhook: defineEndpoint({
    method: 'POST',
    path: '/api/payment-webhook.php',
    tags: ['payments'],
    summary:
      'The payment provider tells a payment changed; the payment is fetched again before anything moves',
    body: webhookBodySchema,
    responses: { 200: okSchema },
  }),
  getBundles: defineEndpoint({
    method: 'GET',
    path: '/api/bundles.php',
    tags: ['payments'],
    summary: "Credit bundles with prices and payment methods of the member's country",
    responses: { 200: bundlesResponseSchema },
  }),
  postOrder: defineEndpoint({
    method: 'POST',
    path: '/api/order.php',
    tags: ['payments'],
    summary: 'Creates an order and a payment at the provider; answers the checkout URL',
    body: createOrderSchema,
    responses: { 201: checkoutResponseSchema, ...errors },
    errors: ['price_changed', 'discount_not_found', 'discount_used', 'provider_unavailable'],
  }),
  getQuote: defineEndpoint({
    method: 'GET',
    path: '/api/quote.php',
    tags: ['payments'],
    summary:
      'The price an order of this bundle, method and discount code would charge, computed as the order computes it; errors as POST /api/order.php',
    query: quoteQuerySchema,
    responses: { 200: quoteSchema, ...errors },
    errors: ['discount_not_found', 'discount_used'],
  }),
  getRepeatOrder: defineEndpoint({
    method: 'GET',
    path: '/api/repeat-order.php',
    tags: ['payments'],
    summary: 'What a repeat order would buy and charge, with which method, before the member confirms it',
    responses: { 200: repeatQuoteSchema, ...errors },
  }),
  postRepeatOrder: defineEndpoint({
    method: 'POST',
    path: '/api/repeat-order.php',
    tags: ['payments'],
    summary:
      'Buys the last bundle again with the last method; amount = what the member confirmed (409 price_changed otherwise)',
    body: repeatOrderBodySchema,
    responses: { 201: checkoutResponseSchema, ...errors },
    errors: ['price_changed', 'provider_unavailable', 'direct_debit_limit'],
  }),
  getOrder: defineEndpoint({
    method: 'GET',
    path: '/api/order.php',
    tags: ['payments'],
    summary: "An order of the member's own: pending, completed, failed or cancelled",
    query: orderQuerySchema,
    responses: { 200: orderResponseSchema, ...errors },
  }),
  getTransactions: defineEndpoint({
    method: 'GET',
    path: '/api/transactions.php',
    tags: ['payments'],
    summary: "The member's orders, or one with an invoice-like detail",
    query: transactionsQuerySchema,
    responses: { 200: transactionsResponseSchema, ...errors },
  }),
  getCredits: defineEndpoint({
    method: 'GET',
    path: '/api/credits.php',
    tags: ['payments'],
    summary: "The member's credits ledger: every change of the balance with its reason",
    responses: { 200: creditsLedgerResponseSchema, ...errors },
  }),
  getDiscountcode: defineEndpoint({
    method: 'GET',
    path: '/api/discountcode.php',
    tags: ['payments'],
    summary: 'welcome=true: the welcome time bonus code while it runs; code=X: checks a code for the member',
    query: discountCodeQuerySchema,
    responses: { 200: discountCodeSchema, ...errors },
    errors: ['discount_not_found', 'discount_used'],
  }),
  getDirectdebit: defineEndpoint({
    method: 'GET',
    path: '/api/directdebit.php',
    tags: ['payments'],
    summary: "The member's direct-debit mandate, if any",
    responses: { 200: currentMandateResponseSchema, ...errors },
  }),
  postDirectdebit: defineEndpoint({
    method: 'POST',
    path: '/api/directdebit.php',
    tags: ['payments'],
    summary:
      'Starts a SEPA direct-debit mandate: checks the IBAN and sends a code by SMS. 403 direct_debit_blocked',
    body: startMandateBodySchema,
    responses: { 201: mandateResponseSchema, ...errors },
    errors: ['direct_debit_blocked', 'sms_unavailable'],
  }),
  putDirectdebit: defineEndpoint({
    method: 'PUT',
    path: '/api/directdebit.php',
    tags: ['payments'],
    summary: 'Confirms the mandate with the SMS code (10 minutes, 5 tries)',
    body: confirmMandateBodySchema,
    responses: { 200: mandateResponseSchema, ...errors },
  }),
  getTestPayment: defineEndpoint({
    method: 'GET',
    path: '/api/test-payment.php',
    tags: ['payments'],
    summary: 'Test mode only: a test payment, for the test checkout page',
    query: testPaymentQuerySchema,
    responses: { 200: testPaymentResponseSchema, ...errors },
  }),
  postTestPayment: defineEndpoint({
    method: 'POST',
    path: '/api/test-payment.php',
    tags: ['payments'],
    summary: 'Test mode only: the payer chooses paid, failed or canceled; settles through the webhook path',
    body: testPaymentBodySchema,
    responses: { 200: testPaymentResultSchema, ...errors },
  }),
};
