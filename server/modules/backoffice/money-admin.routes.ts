import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  adminBundleResponseSchema,
  adminBundlesResponseSchema,
  adminDiscountCodeResponseSchema,
  adminDiscountCodesResponseSchema,
  adminGiftResponseSchema,
  adminGiftsResponseSchema,
  adminOrderDetailResponseSchema,
  adminOrderQuerySchema,
  adminOrdersExportQuerySchema,
  adminOrdersQuerySchema,
  adminOrdersResponseSchema,
  bundlePriceSchema,
  createBundleSchema,
  createDiscountCodeSchema,
  createGiftSchema,
  deleteBundlePriceSchema,
  giftImageQuerySchema,
  updateBundleSchema,
  updateDiscountCodeSchema,
  updateGiftSchema,
} from '#contract/admin-money.ts';
import { AppError } from '#server/lib/errors.ts';
import type { ZodApp } from '#server/lib/zod-app.ts';
import { readUpload } from '#server/modules/photos/photos.routes.ts';
import { requireStaff } from '#server/modules/staff/staff.sessions.ts';
import { MoneyAdminService } from './money-admin.service.ts';
import { backofficeErrors } from './sites-admin.routes.ts';

const tags = ['admin'];
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

  app.get(
    '/api/admin/bundles.php',
    {
      schema: {
        tags,
        summary: 'Every credit bundle with its prices per country and paid orders (admin)',
        response: { 200: adminBundlesResponseSchema, ...backofficeErrors },
      },
    },
    async (request) => {
      requireStaff(request, right);
      return { bundles: await service.bundles() };
    },
  );

  app.post(
    '/api/admin/bundles.php',
    {
      schema: {
        tags,
        summary: 'Adds a credit bundle (admin); it sells in the countries it gets a price for',
        body: createBundleSchema,
        response: { 201: adminBundleResponseSchema, ...backofficeErrors },
      },
    },
    async (request, reply) => {
      const bundle = await service.createBundle(acting(request), request.body);
      reply.status(201);
      return { bundle };
    },
  );

  app.put(
    '/api/admin/bundles.php',
    {
      schema: {
        tags,
        summary: 'Changes a bundle: credits, position, badge, active (false takes it off sale) (admin)',
        body: updateBundleSchema,
        response: { 200: adminBundleResponseSchema, ...backofficeErrors },
      },
    },
    async (request) => {
      return { bundle: await service.updateBundle(acting(request), request.body) };
    },
  );

  app.put(
    '/api/admin/bundle-prices.php',
    {
      schema: {
        tags,
        summary:
          "Sets a bundle's price in one country (integer cents and currency); members see it at once (admin)",
        body: bundlePriceSchema,
        response: { 200: adminBundleResponseSchema, ...backofficeErrors },
      },
    },
    async (request) => {
      return { bundle: await service.setPrice(acting(request), request.body) };
    },
  );

  app.delete(
    '/api/admin/bundle-prices.php',
    {
      schema: {
        tags,
        summary: 'Takes a bundle off sale in one country (admin)',
        body: deleteBundlePriceSchema,
        response: { 200: adminBundleResponseSchema, ...backofficeErrors },
      },
    },
    async (request) => {
      const { bundle, country } = request.body;
      return { bundle: await service.removePrice(acting(request), bundle, country) };
    },
  );

  app.get(
    '/api/admin/gifts.php',
    {
      schema: {
        tags,
        summary: 'Every gift with its names per language, image, cost and how often it was sent (admin)',
        response: { 200: adminGiftsResponseSchema, ...backofficeErrors },
      },
    },
    async (request) => {
      requireStaff(request, right);
      return { gifts: await service.gifts() };
    },
  );

  app.post(
    '/api/admin/gifts.php',
    {
      schema: {
        tags,
        summary:
          'Adds a gift (admin): names.en required; off sale until an image is uploaded. 422 slug_taken',
        body: createGiftSchema,
        response: { 201: adminGiftResponseSchema, ...backofficeErrors },
      },
    },
    async (request, reply) => {
      const gift = await service.createGift(acting(request), request.body);
      reply.status(201);
      return { gift };
    },
  );

  app.put(
    '/api/admin/gifts.php',
    {
      schema: {
        tags,
        summary: "Changes a gift: names, credits (null: the site's gift_credits), position, active (admin)",
        body: updateGiftSchema,
        response: { 200: adminGiftResponseSchema, ...backofficeErrors },
      },
    },
    async (request) => {
      return { gift: await service.updateGift(acting(request), request.body) };
    },
  );

  app.post(
    '/api/admin/gift-image.php',
    {
      config: { rateLimit: { max: 60, timeWindow: '1 hour' } },
      schema: {
        tags,
        summary:
          'Uploads a gift’s image (multipart field "file"; admin); re-encoded without metadata, public',
        consumes: ['multipart/form-data'],
        querystring: giftImageQuerySchema,
        response: { 200: adminGiftResponseSchema, ...backofficeErrors },
      },
    },
    async (request) => {
      const who = acting(request);
      if (!request.isMultipart()) throw new AppError(415, 'unsupported_media_type');
      const data = await readUpload(request);
      return { gift: await service.uploadGiftImage(who, request.query.gift, data) };
    },
  );

  app.get(
    '/api/admin/discountcodes.php',
    {
      schema: {
        tags,
        summary: 'Every discount code (spec §3 fields) with its redemptions and paid orders (admin)',
        response: { 200: adminDiscountCodesResponseSchema, ...backofficeErrors },
      },
    },
    async (request) => {
      requireStaff(request, right);
      return { discountcodes: await service.discountCodes() };
    },
  );

  app.post(
    '/api/admin/discountcodes.php',
    {
      schema: {
        tags,
        summary: 'Adds a discount code (admin); 422 code_taken, member_unknown',
        body: createDiscountCodeSchema,
        response: { 201: adminDiscountCodeResponseSchema, ...backofficeErrors },
      },
    },
    async (request, reply) => {
      const discountcode = await service.createDiscountCode(acting(request), request.body);
      reply.status(201);
      return { discountcode };
    },
  );

  app.put(
    '/api/admin/discountcodes.php',
    {
      schema: {
        tags,
        summary: 'Changes a discount code; status inactive disables it (admin)',
        body: updateDiscountCodeSchema,
        response: { 200: adminDiscountCodeResponseSchema, ...backofficeErrors },
      },
    },
    async (request) => {
      return { discountcode: await service.updateDiscountCode(acting(request), request.body) };
    },
  );

  app.get(
    '/api/admin/orders.php',
    {
      schema: {
        tags,
        summary:
          'Orders, newest first, filtered by status, method, site, member and dates; 50 a page (admin)',
        querystring: adminOrdersQuerySchema,
        response: { 200: adminOrdersResponseSchema, ...backofficeErrors },
      },
    },
    async (request) => {
      requireStaff(request, right);
      return service.orders(request.query);
    },
  );

  app.get(
    '/api/admin/orders-export.php',
    {
      config: { rateLimit: { max: 30, timeWindow: '1 minute' } },
      schema: {
        tags,
        summary:
          'The orders of GET /api/admin/orders.php with its filters, every page, as a CSV file (text/csv; formula-safe: a field starting with = + - @ gets a leading apostrophe; at most 100,000 orders, more is a field error on from) (admin)',
        querystring: adminOrdersExportQuerySchema,
        response: { 200: z.string().describe('text/csv'), ...backofficeErrors },
      },
    },
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

  app.get(
    '/api/admin/order.php',
    {
      schema: {
        tags,
        summary:
          "An order with the provider's payment id, the credits booked for it and its webhook history (admin)",
        querystring: adminOrderQuerySchema,
        response: { 200: adminOrderDetailResponseSchema, ...backofficeErrors },
      },
    },
    async (request) => {
      requireStaff(request, right);
      return service.order(request.query.id, deps.payments.provider.name);
    },
  );
}
