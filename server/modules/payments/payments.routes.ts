import { paymentsEndpoints } from '#contract/endpoints/payments.ts';
import type { UserRow } from '#server/db/schema/members.ts';
import type { SiteRow } from '#server/db/schema/sites.ts';
import { routeOf } from '#server/lib/endpoint-route.ts';
import { NotFoundError } from '#server/lib/errors.ts';
import type { ZodApp } from '#server/lib/zod-app.ts';
import { requireMember } from '#server/modules/accounts/sessions.ts';
import { creditsHistory } from '#server/modules/credits/credits.service.ts';
import { siteOrigin } from '#server/modules/sites/site-origin.ts';
import type { createTestProvider } from './providers.ts';

export async function paymentsRoutes(app: ZodApp): Promise<void> {
  const payments = app.deps.payments;
  // Provider redirect and webhook URLs come from the site's configured origin, never from request headers.
  const context = (request: { clientCountry: string | null; site: SiteRow }) => ({
    geoipCountry: request.clientCountry,
    baseUrl: siteOrigin(request.site, app.deps.config),
  });

  routeOf(app, paymentsEndpoints.getBundles, {}, async (request) =>
    payments.bundles(request.member, request.site, request.clientCountry),
  );

  routeOf(
    app,
    paymentsEndpoints.postOrder,
    {
      config: {
        rateLimit: {
          max: 20,
          timeWindow: '10 minutes',
          keyGenerator: (request) => `orders:${request.member?.id ?? request.ip}`,
        },
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

  routeOf(app, paymentsEndpoints.getQuote, {}, async (request) =>
    payments.quote(requireMember(request), request.site, request.query, request.clientCountry),
  );

  routeOf(app, paymentsEndpoints.getRepeatOrder, {}, async (request) =>
    payments.repeatQuote(requireMember(request), request.site, request.clientCountry),
  );

  routeOf(app, paymentsEndpoints.postRepeatOrder, {}, async (request, reply) => {
    const result = await payments.repeatOrder(
      requireMember(request),
      request.site,
      context(request),
      request.body?.amount,
    );
    reply.status(201);
    return result;
  });

  routeOf(app, paymentsEndpoints.getOrder, {}, async (request) => ({
    order: await payments.order(requireMember(request), request.query.id),
  }));

  routeOf(app, paymentsEndpoints.getTransactions, {}, async (request) => {
    const member = requireMember(request);
    if (request.query.id === undefined) return { transactions: await payments.orders(member) };
    return { transaction: await payments.invoice(member, request.query.id, app.deps.sites) };
  });

  routeOf(app, paymentsEndpoints.getCredits, {}, async (request) => {
    const member = requireMember(request);
    return { credits: member.credits, ledger: await creditsHistory(app.deps.db, member.id) };
  });

  routeOf(app, paymentsEndpoints.getDiscountcode, {}, async (request) => {
    const member = requireMember(request);
    if (request.query.code) {
      const country = await payments.countryOf(member, request.site, request.clientCountry);
      return payments.toDiscountCode(
        await payments.validDiscount(member, request.site, request.query.code, { country }),
        member,
      );
    }
    const code = await payments.welcomeCode(member, request.site);
    if (!code) throw new NotFoundError('discount_not_found');
    return code;
  });

  routeOf(app, paymentsEndpoints.getDirectdebit, {}, async (request) => ({
    mandate: await app.deps.directDebit.current(requireMember(request)),
  }));
  routeOf(
    app,
    paymentsEndpoints.postDirectdebit,
    {
      config: {
        rateLimit: {
          max: 5,
          timeWindow: '1 hour',
          keyGenerator: (request) => `directdebit:${request.member?.id ?? request.ip}`,
        },
      },
    },
    async (request, reply) => {
      const mandate = await app.deps.directDebit.start(requireMember(request), request.site, request.body);
      reply.status(201);
      return { mandate };
    },
  );
  routeOf(app, paymentsEndpoints.putDirectdebit, {}, async (request) => ({
    mandate: await app.deps.directDebit.confirm(
      requireMember(request),
      request.body.mandate,
      request.body.code,
    ),
  }));

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
    routeOf(webhooks, paymentsEndpoints.postPaymentWebhook, {}, async (request) => {
      await payments.settle(request.body.id);
      return { ok: true as const };
    });
  });

  if (payments.provider.name === 'test') {
    const testProvider = payments.provider as ReturnType<typeof createTestProvider>;
    /** A test payment only its payer (the order's member) may see or settle. */
    const payerPayment = async (member: UserRow, id: string) => {
      const [payment, order] = await Promise.all([testProvider.find(id), payments.orderOfPayment(id)]);
      if (!payment || !order || order.userId !== member.id) throw new NotFoundError();
      return payment;
    };
    routeOf(app, paymentsEndpoints.getTestPayment, {}, async (request) => {
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
    });
    routeOf(app, paymentsEndpoints.postTestPayment, {}, async (request) => {
      const payment = await payerPayment(requireMember(request), request.body.payment);
      if (payment.status !== 'open') throw new NotFoundError();
      await testProvider.setStatus(payment.id, request.body.status);
      await payments.settle(payment.id, 'checkout');
      return { ok: true as const, redirect: new URL(payment.redirectUrl).pathname };
    });
  }
}
