import type { FastifyRequest } from 'fastify';
import { moneyAdminEndpoints as calls } from '#contract/endpoints/backoffice.ts';
import { routeOf } from '#server/lib/endpoint-route.ts';
import { AppError } from '#server/lib/errors.ts';
import type { ZodApp } from '#server/lib/zod-app.ts';
import { readUpload } from '#server/modules/photos/photos.routes.ts';
import { requireStaff } from '#server/modules/staff/staff.sessions.ts';
import { MoneyAdminService } from './money-admin.service.ts';

const right = 'manage_offers';

/**
 * Money and offers in the back office (admins only): bundles and their prices per
 * country, gifts, discount codes and orders. Refunds are POST /api/admin/refund.php (moderation).
 */
export async function moneyAdminRoutes(app: ZodApp): Promise<void> {
  const { deps } = app;
  const service = new MoneyAdminService(
    deps.db,
    deps.clock,
    deps.staff,
    deps.storage,
    deps.caught.reportCaught,
  );
  const acting = (request: FastifyRequest) => ({ actor: requireStaff(request, right), ip: request.ip });

  routeOf(app, calls.getBundles, {}, async (request) => {
    requireStaff(request, right);
    return { bundles: await service.bundles() };
  });

  routeOf(app, calls.postBundles, {}, async (request, reply) => {
    const bundle = await service.createBundle(acting(request), request.body);
    reply.status(201);
    return { bundle };
  });

  routeOf(app, calls.putBundles, {}, async (request) => ({
    bundle: await service.updateBundle(acting(request), request.body),
  }));

  routeOf(app, calls.putBundlePrices, {}, async (request) => ({
    bundle: await service.setPrice(acting(request), request.body),
  }));

  routeOf(app, calls.deleteBundlePrices, {}, async (request) => {
    const { bundle, country } = request.body;
    return { bundle: await service.removePrice(acting(request), bundle, country) };
  });

  routeOf(app, calls.getGifts, {}, async (request) => {
    requireStaff(request, right);
    return { gifts: await service.gifts() };
  });

  routeOf(app, calls.postGifts, {}, async (request, reply) => {
    const gift = await service.createGift(acting(request), request.body);
    reply.status(201);
    return { gift };
  });

  routeOf(app, calls.putGifts, {}, async (request) => ({
    gift: await service.updateGift(acting(request), request.body),
  }));

  routeOf(
    app,
    calls.postGiftImage,
    { config: { rateLimit: { max: 60, timeWindow: '1 hour' } } },
    async (request) => {
      const who = acting(request);
      if (!request.isMultipart()) throw new AppError(415, 'unsupported_media_type');
      const data = await readUpload(request);
      return { gift: await service.uploadGiftImage(who, request.query.gift, data) };
    },
  );

  routeOf(app, calls.getDiscountcodes, {}, async (request) => {
    requireStaff(request, right);
    return { discountcodes: await service.discountCodes() };
  });

  routeOf(app, calls.postDiscountcodes, {}, async (request, reply) => {
    const discountcode = await service.createDiscountCode(acting(request), request.body);
    reply.status(201);
    return { discountcode };
  });

  routeOf(app, calls.putDiscountcodes, {}, async (request) => ({
    discountcode: await service.updateDiscountCode(acting(request), request.body),
  }));

  routeOf(app, calls.getOrders, {}, async (request) => {
    requireStaff(request, right);
    return service.orders(request.query);
  });

  routeOf(
    app,
    calls.getOrdersExport,
    { config: { rateLimit: { max: 30, timeWindow: '1 minute' } } },
    async (request, reply) => {
      requireStaff(request, right);
      const query = request.query;
      const body = await service.ordersCsv(query);
      const parts = [
        query.from ?? null,
        query.to ?? null,
        query.site ? `site${query.site}` : null,
        query.status ?? null,
        query.method ?? null,
        query.member ? `member${query.member}` : null,
      ].filter((part) => part !== null);
      reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${['orders', ...parts].join('-')}.csv"`)
        .header('cache-control', 'no-store');
      return body;
    },
  );

  routeOf(app, calls.getOrder, {}, async (request) => {
    requireStaff(request, right);
    return service.order(request.query.id, deps.payments.provider.name);
  });

  // The member's invoice as the member reads it, for staff who see the orders.
  routeOf(app, calls.getInvoice, {}, async (request) => {
    requireStaff(request, right);
    return { transaction: await deps.payments.invoiceForStaff(request.query.id, deps.sites) };
  });
}
