import { errorBodySchema, okSchema } from '#contract/common.ts';
import {
  checkoutResponseSchema,
  confirmMandateBodySchema,
  creditsLedgerResponseSchema,
  currentMandateResponseSchema,
  discountCodeQuerySchema,
  mandateResponseSchema,
  orderQuerySchema,
  orderResponseSchema,
  repeatOrderBodySchema,
  startMandateBodySchema,
  testPaymentBodySchema,
  testPaymentQuerySchema,
  testPaymentResponseSchema,
  testPaymentResultSchema,
  transactionsQuerySchema,
  transactionsResponseSchema,
  webhookBodySchema,
} from '#contract/endpoints.ts';
import {
  bundlesResponseSchema,
  createOrderSchema,
  discountCodeSchema,
  quoteQuerySchema,
  quoteSchema,
  repeatQuoteSchema,
} from '#contract/payments.ts';
import type { UserRow } from '#server/db/schema/members.ts';
import type { SiteRow } from '#server/db/schema/sites.ts';
import { NotFoundError } from '#server/lib/errors.ts';
import type { ZodApp } from '#server/lib/zod-app.ts';
import { requireMember } from '#server/modules/accounts/sessions.ts';
import { creditsHistory } from '#server/modules/credits/credits.service.ts';
import { siteOrigin } from '#server/modules/sites/site-origin.ts';
import { toCompanyInfo } from '#server/modules/sites/sites.service.ts';
import type { createTestProvider } from './providers.ts';

const errors = {
  403: errorBodySchema,
  404: errorBodySchema,
  409: errorBodySchema,
  422: errorBodySchema,
  429: errorBodySchema,
};

export async function paymentsRoutes(app: ZodApp): Promise<void> {
  const payments = app.deps.payments;
  // Provider redirect and webhook URLs come from the site's configured origin, never from request headers.
  const context = (request: { clientCountry: string | null; site: SiteRow }) => ({
    geoipCountry: request.clientCountry,
    baseUrl: siteOrigin(request.site, app.deps.config),
  });

  app.get(
    '/api/bundles.php',
    {
      schema: {
        tags: ['payments'],
        summary: "Credit bundles with prices and payment methods of the member's country",
        response: { 200: bundlesResponseSchema },
      },
    },
    async (request) => payments.bundles(request.member, request.site, request.clientCountry),
  );

  app.post(
    '/api/order.php',
    {
      config: {
        rateLimit: {
          max: 20,
          timeWindow: '10 minutes',
          keyGenerator: (request) => `orders:${request.member?.id ?? request.ip}`,
        },
      },
      schema: {
        tags: ['payments'],
        summary: 'Creates an order and a payment at the provider; answers the checkout URL',
        body: createOrderSchema,
        response: { 201: checkoutResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      const result = await payments.createOrder(
        requireMember(request),
        request.site,
        request.body,
        context(request),
      );
      reply.status(201);
      return result;
    },
  );

  app.get(
    '/api/quote.php',
    {
      schema: {
        tags: ['payments'],
        summary:
          'The price an order of this bundle, method and discount code would charge, computed as the order computes it; errors as POST /api/order.php',
        querystring: quoteQuerySchema,
        response: { 200: quoteSchema, ...errors },
      },
    },
    async (request) =>
      payments.quote(requireMember(request), request.site, request.query, request.clientCountry),
  );

  app.get(
    '/api/repeat-order.php',
    {
      schema: {
        tags: ['payments'],
        summary: 'What a repeat order would buy and charge, with which method, before the member confirms it',
        response: { 200: repeatQuoteSchema, ...errors },
      },
    },
    async (request) => payments.repeatQuote(requireMember(request), request.site, request.clientCountry),
  );

  app.post(
    '/api/repeat-order.php',
    {
      schema: {
        tags: ['payments'],
        summary:
          'Buys the last bundle again with the last method; amount = what the member confirmed (409 price_changed otherwise)',
        body: repeatOrderBodySchema,
        response: { 201: checkoutResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      const result = await payments.repeatOrder(
        requireMember(request),
        request.site,
        context(request),
        request.body?.amount,
      );
      reply.status(201);
      return result;
    },
  );

  app.get(
    '/api/order.php',
    {
      schema: {
        tags: ['payments'],
        summary: "An order of the member's own: pending, completed, failed or cancelled",
        querystring: orderQuerySchema,
        response: { 200: orderResponseSchema, ...errors },
      },
    },
    async (request) => ({ order: await payments.order(requireMember(request), request.query.id) }),
  );

  app.get(
    '/api/transactions.php',
    {
      schema: {
        tags: ['payments'],
        summary: "The member's orders, or one with an invoice-like detail",
        querystring: transactionsQuerySchema,
        response: { 200: transactionsResponseSchema, ...errors },
      },
    },
    async (request) => {
      const member = requireMember(request);
      if (request.query.id === undefined) return { transactions: await payments.orders(member) };
      const order = await payments.order(member, request.query.id);
      const company = await app.deps.sites.company(request.site);
      const info = company ? toCompanyInfo(company) : null;
      return {
        transaction: {
          ...order,
          company: info
            ? {
                name: info.name,
                address: info.address,
                city: info.city,
                country: info.country,
                kvk: info.kvk,
                vat_numbers: info.vat_numbers,
              }
            : null,
          refund_days: request.site.refundDays,
        },
      };
    },
  );

  app.get(
    '/api/credits.php',
    {
      schema: {
        tags: ['payments'],
        summary: "The member's credits ledger: every change of the balance with its reason",
        response: { 200: creditsLedgerResponseSchema, ...errors },
      },
    },
    async (request) => {
      const member = requireMember(request);
      return { credits: member.credits, ledger: await creditsHistory(app.deps.db, member.id) };
    },
  );

  app.get(
    '/api/discountcode.php',
    {
      schema: {
        tags: ['payments'],
        summary:
          'welcome=true: the welcome time bonus code while it runs; code=X: checks a code for the member',
        querystring: discountCodeQuerySchema,
        response: { 200: discountCodeSchema, ...errors },
      },
    },
    async (request) => {
      const member = requireMember(request);
      if (request.query.code) {
        const country = await payments.countryOf(member, request.site, request.clientCountry);
        return payments.toDiscountCode(
          await payments.validDiscount(member, request.query.code, { country }),
          member,
        );
      }
      const code = await payments.welcomeCode(member);
      if (!code) throw new NotFoundError('discount_not_found');
      return code;
    },
  );

  app.get(
    '/api/directdebit.php',
    {
      schema: {
        tags: ['payments'],
        summary: "The member's direct-debit mandate, if any",
        response: { 200: currentMandateResponseSchema, ...errors },
      },
    },
    async (request) => ({ mandate: await app.deps.directDebit.current(requireMember(request)) }),
  );
  app.post(
    '/api/directdebit.php',
    {
      config: {
        rateLimit: {
          max: 5,
          timeWindow: '1 hour',
          keyGenerator: (request) => `directdebit:${request.member?.id ?? request.ip}`,
        },
      },
      schema: {
        tags: ['payments'],
        summary:
          'Starts a SEPA direct-debit mandate: checks the IBAN and sends a code by SMS. 403 direct_debit_blocked',
        body: startMandateBodySchema,
        response: { 201: mandateResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      const mandate = await app.deps.directDebit.start(requireMember(request), request.site, request.body);
      reply.status(201);
      return { mandate };
    },
  );
  app.put(
    '/api/directdebit.php',
    {
      schema: {
        tags: ['payments'],
        summary: 'Confirms the mandate with the SMS code (10 minutes, 5 tries)',
        body: confirmMandateBodySchema,
        response: { 200: mandateResponseSchema, ...errors },
      },
    },
    async (request) => ({
      mandate: await app.deps.directDebit.confirm(
        requireMember(request),
        request.body.mandate,
        request.body.code,
      ),
    }),
  );

  await app.register(async (instance) => {
    const webhooks = instance as unknown as ZodApp;
    // Providers post their webhook as a form: id=<payment id>.
    webhooks.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string' },
      (_request, body, done) => {
        done(null, Object.fromEntries(new URLSearchParams(String(body))));
      },
    );
    webhooks.post(
      '/api/payment-webhook.php',
      {
        schema: {
          tags: ['payments'],
          summary:
            'The payment provider tells a payment changed; the payment is fetched again before anything moves',
          body: webhookBodySchema,
          response: { 200: okSchema },
        },
      },
      async (request) => {
        await payments.settle(request.body.id);
        return { ok: true as const };
      },
    );
  });

  if (payments.provider.name === 'test') {
    const testProvider = payments.provider as ReturnType<typeof createTestProvider>;
    /** A test payment only its payer (the order's member) may see or settle. */
    const payerPayment = async (member: UserRow, id: string) => {
      const [payment, order] = await Promise.all([testProvider.find(id), payments.orderOfPayment(id)]);
      if (!payment || !order || order.userId !== member.id) throw new NotFoundError();
      return payment;
    };
    app.get(
      '/api/test-payment.php',
      {
        schema: {
          tags: ['payments'],
          summary: 'Test mode only: a test payment, for the test checkout page',
          querystring: testPaymentQuerySchema,
          response: { 200: testPaymentResponseSchema, ...errors },
        },
      },
      async (request) => {
        const payment = await payerPayment(requireMember(request), request.query.payment);
        return {
          payment: {
            id: payment.id,
            amount: payment.amountCents,
            currency: payment.currency,
            description: payment.description,
            status: payment.status,
          },
        };
      },
    );
    app.post(
      '/api/test-payment.php',
      {
        schema: {
          tags: ['payments'],
          summary:
            'Test mode only: the payer chooses paid, failed or canceled; settles through the webhook path',
          body: testPaymentBodySchema,
          response: { 200: testPaymentResultSchema, ...errors },
        },
      },
      async (request) => {
        const payment = await payerPayment(requireMember(request), request.body.payment);
        if (payment.status !== 'open') throw new NotFoundError();
        await testProvider.setStatus(payment.id, request.body.status);
        await payments.settle(payment.id, 'checkout');
        return { ok: true as const, redirect: new URL(payment.redirectUrl).pathname };
      },
    );
  }
}
