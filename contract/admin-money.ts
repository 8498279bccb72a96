import { z } from 'zod';
import { idField, idParam } from './common.ts';
import { locales } from './locales.ts';
import {
  bundleBadgeOptions,
  orderStatusSchema,
  paymentMethodOptions,
  transactionSchema,
} from './payments.ts';

/**
 * The back office's money and offers (admins): credit bundles and their prices per
 * country, gifts, discount codes (spec §3) and orders. Field errors are codes the pages show.
 */

const country = z.string({ error: 'invalid' }).regex(/^[A-Z]{2}$/, { error: 'invalid' });
const currency = z.string({ error: 'invalid' }).regex(/^[A-Z]{3}$/, { error: 'invalid' });
const whole = (min: number, max: number) =>
  z
    .number({ error: 'invalid' })
    .int({ error: 'invalid' })
    .min(min, { error: 'out_of_range' })
    .max(max, { error: 'out_of_range' });

// Credit bundles

/** A site's own offer (absent or null: every site without offers of its own, decision 049). */
const offerSite = idField.nullable().describe('null: every site that has none of its own');
const siteOfOffer = z
  .object({ id: z.number().int(), name: z.string() })
  .nullable()
  .describe('null: every site that has none of its own');

export const bundleFieldsSchema = z.object({
  site: offerSite,
  credits: whole(1, 100_000),
  position: whole(0, 10_000),
  active: z.boolean({ error: 'invalid' }),
  badge: z.enum(bundleBadgeOptions, { error: 'invalid' }).nullable(),
});
export const createBundleSchema = bundleFieldsSchema.partial().required({ credits: true });
export type CreateBundle = z.infer<typeof createBundleSchema>;
export const updateBundleSchema = bundleFieldsSchema.partial().extend({ id: idField });
export type UpdateBundle = z.infer<typeof updateBundleSchema>;

export const adminBundlePriceSchema = z.object({
  country: z.string(),
  amount: z.number().int().describe('integer cents'),
  currency: z.string(),
});
export const adminBundleSchema = z.object({
  id: z.number().int(),
  site: siteOfOffer,
  credits: z.number().int(),
  position: z.number().int(),
  active: z.boolean(),
  badge: z.enum(bundleBadgeOptions).nullable(),
  prices: z.array(adminBundlePriceSchema),
  orders: z.number().int().describe('completed orders of this bundle'),
});
export type AdminBundle = z.infer<typeof adminBundleSchema>;
export const adminBundlesResponseSchema = z.object({ bundles: z.array(adminBundleSchema) });
export const adminBundleResponseSchema = z.object({ bundle: adminBundleSchema });

/** PUT /api/admin/bundle-prices.php: sets (adds or changes) a bundle's price in one country. */
export const bundlePriceSchema = z.object({
  bundle: idField,
  country,
  amount: whole(1, 10_000_000),
  currency,
});
export type BundlePriceInput = z.infer<typeof bundlePriceSchema>;
export const deleteBundlePriceSchema = z.object({ bundle: idField, country });

// Gifts

export const giftNamesSchema = z.partialRecord(
  z.enum(locales, { error: 'invalid' }),
  z.string({ error: 'invalid' }).trim().max(40, { error: 'too_long' }),
);
export const giftFieldsSchema = z.object({
  site: offerSite,
  slug: z
    .string({ error: 'required' })
    .trim()
    .toLowerCase()
    .regex(/^[a-z0-9][a-z0-9-]{1,39}$/, { error: 'invalid' }),
  names: giftNamesSchema,
  credits: whole(0, 1000).nullable().describe("null: the site's gift_credits"),
  position: whole(0, 10_000),
  active: z.boolean({ error: 'invalid' }),
});
export const createGiftSchema = giftFieldsSchema.partial().required({ slug: true, names: true });
export type CreateGift = z.infer<typeof createGiftSchema>;
export const updateGiftSchema = giftFieldsSchema.partial().extend({ id: idField });
export type UpdateGift = z.infer<typeof updateGiftSchema>;

export const adminGiftSchema = z.object({
  id: z.number().int(),
  site: siteOfOffer,
  slug: z.string(),
  image: z.string().nullable().describe('null until an image is uploaded'),
  names: z.record(z.string(), z.string()),
  credits: z.number().int().nullable(),
  position: z.number().int(),
  active: z.boolean(),
  sent: z.number().int().describe('how often it was sent'),
});
export type AdminGift = z.infer<typeof adminGiftSchema>;
export const adminGiftsResponseSchema = z.object({ gifts: z.array(adminGiftSchema) });
export const adminGiftResponseSchema = z.object({ gift: adminGiftSchema });
export const giftImageQuerySchema = z.object({ gift: idParam });

// Discount codes (spec §3)

export const discountCodeFieldsSchema = z.object({
  code: z
    .string({ error: 'required' })
    .trim()
    .toUpperCase()
    .regex(/^[A-Z0-9_-]{3,40}$/, { error: 'invalid' }),
  site: idField.nullable().describe('null: the code works on every site'),
  country: country.nullable(),
  member: idField.nullable().describe("the member's profile id: the code is theirs alone"),
  expires: z.iso.datetime({ offset: true, error: 'invalid_expiry' }).nullable(),
  value_percentage: whole(1, 100),
  currency: currency.nullable(),
  minimum_order_value: whole(0, 10_000_000).describe('integer cents'),
  status: z.enum(['active', 'inactive'], { error: 'invalid' }),
  validity: z.enum(['once_per_user', 'unlimited'], { error: 'invalid' }),
  paymentmethods: z
    .array(z.enum(paymentMethodOptions, { error: 'invalid' }))
    .max(paymentMethodOptions.length)
    .describe('empty: every method'),
});
export const createDiscountCodeSchema = discountCodeFieldsSchema
  .partial()
  .required({ code: true, value_percentage: true });
export type CreateDiscountCode = z.infer<typeof createDiscountCodeSchema>;
export const updateDiscountCodeSchema = discountCodeFieldsSchema.partial().extend({ id: idField });
export type UpdateDiscountCode = z.infer<typeof updateDiscountCodeSchema>;

export const adminDiscountCodeSchema = z.object({
  id: z.number().int(),
  code: z.string(),
  site: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  country: z.string().nullable(),
  member: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  expires: z.string().nullable(),
  expired: z.boolean(),
  value_percentage: z.number().int(),
  currency: z.string().nullable(),
  minimum_order_value: z.number().int(),
  status: z.enum(['active', 'inactive']),
  validity: z.enum(['once_per_user', 'unlimited']),
  paymentmethods: z.array(z.string()),
  created_at: z.string(),
  redemptions: z.number().int().describe('times members used it'),
  paid_orders: z.number().int().describe('completed orders with it'),
});
export type AdminDiscountCode = z.infer<typeof adminDiscountCodeSchema>;
export const adminDiscountCodesResponseSchema = z.object({
  discountcodes: z.array(adminDiscountCodeSchema),
});
export const adminDiscountCodeResponseSchema = z.object({ discountcode: adminDiscountCodeSchema });

// Orders

export const adminOrdersQuerySchema = z.object({
  status: orderStatusSchema.optional(),
  method: z.enum(paymentMethodOptions).optional(),
  site: idParam.optional(),
  member: idParam.optional().describe("the member's profile id"),
  from: z.iso.date().optional().describe('created on or after this day (UTC)'),
  to: z.iso.date().optional().describe('created on or before this day (UTC)'),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
});
export type AdminOrdersQuery = z.infer<typeof adminOrdersQuerySchema>;
/** The CSV download of the orders: the list's filters, every matching order (no pages). */
export const adminOrdersExportQuerySchema = adminOrdersQuerySchema.omit({ page: true });
export type AdminOrdersExportQuery = z.infer<typeof adminOrdersExportQuerySchema>;

export const adminOrderSchema = z.object({
  id: z.number().int(),
  status: orderStatusSchema,
  site: z.object({ id: z.number().int(), name: z.string() }),
  member: z.object({ id: z.number().int(), name: z.string(), email: z.string().nullable() }),
  bundle: z.number().int(),
  credits: z.number().int(),
  amount: z.number().int().describe('charged, integer cents'),
  list_price: z.number().int(),
  currency: z.string(),
  country: z.string(),
  paymentmethod: z.string(),
  provider: z.string(),
  provider_payment_id: z.string().nullable(),
  discount: z
    .object({ id: z.number().int(), code: z.string(), value_percentage: z.number().int() })
    .nullable(),
  created_at: z.string(),
  settled_at: z.string().nullable(),
  refund_cents: z
    .number()
    .int()
    .nullable()
    .describe('a partial refund asked (null: none or the whole amount)'),
  refund_credits: z.number().int().nullable(),
  charged_back_at: z.string().nullable().describe('when the provider reported a chargeback'),
});
export type AdminOrder = z.infer<typeof adminOrderSchema>;
export const adminOrdersResponseSchema = z.object({
  orders: z.array(adminOrderSchema),
  total: z.number().int(),
  page: z.number().int(),
  pages: z.number().int(),
});

export const orderEventSchema = z.object({
  id: z.number().int(),
  at: z.string(),
  source: z.enum(['webhook', 'checkout', 'recheck', 'refund', 'cancel', 'recurring']),
  provider_status: z.string(),
  refunded: z.number().int().describe('integer cents the provider reports refunded'),
  charged_back: z.number().int(),
  status_before: orderStatusSchema,
  status_after: orderStatusSchema,
});
export type OrderEvent = z.infer<typeof orderEventSchema>;

export const adminOrderQuerySchema = z.object({ id: idParam });
/** A member's invoice for staff: the same document the member's own call gives (transactionSchema). */
export const adminInvoiceResponseSchema = z.object({ transaction: transactionSchema });
export const adminOrderDetailResponseSchema = z.object({
  order: adminOrderSchema,
  credits_granted: z.number().int().describe('credits the ledger booked for this payment'),
  credits_reversed: z.number().int().describe('credits taken back by a refund or chargeback'),
  refundable: z.boolean(),
  events: z.array(orderEventSchema).describe('every provider report on the order, oldest first'),
});
export type AdminOrderDetail = z.infer<typeof adminOrderDetailResponseSchema>;
