import { z } from 'zod';
import { idField } from './common.ts';

/** Payment methods (spec §3) the platform knows; which ones a country offers is the server's. */
export const paymentMethodOptions = [
  'ideal',
  'bancontact',
  'card',
  'paypal',
  'applepay',
  'directdebit',
  'sofort',
  'giropay',
  'eps',
  'blik',
  'banktransfer',
  'paysafecard',
] as const;

/** A badge on a bundle (credits page), set in the back office. */
export const bundleBadgeOptions = ['most_popular', 'best_value'] as const;

export const bundleSchema = z.object({
  id: z.number().int(),
  credits: z.number().int(),
  price: z.number().int().describe('integer cents'),
  currency: z.string(),
  badge: z.enum(bundleBadgeOptions).nullable(),
});

export const bundlesResponseSchema = z.object({
  bundles: z.array(bundleSchema),
  paymentmethods: z.array(z.string()),
  country: z.string(),
});
export type BundlesResponse = z.infer<typeof bundlesResponseSchema>;

export const orderStatusSchema = z.enum([
  'pending',
  'completed',
  'failed',
  'cancelled',
  'refunding',
  'refunded',
]);

export const orderSchema = z.object({
  id: z.number().int(),
  status: orderStatusSchema,
  bundle: z.number().int(),
  credits: z.number().int(),
  amount: z.number().int().describe('charged, integer cents'),
  list_price: z.number().int(),
  currency: z.string(),
  paymentmethod: z.string(),
  created_at: z.string(),
  settled_at: z.string().nullable(),
});
export type Order = z.infer<typeof orderSchema>;

export const createOrderSchema = z.object({
  bundle: idField,
  paymentmethod: z.string().max(20),
  discountcode: z.string().trim().max(40).optional(),
  amount: z
    .number()
    .int()
    .nonnegative()
    .optional()
    .describe(
      'the amount the member was shown (quote); 409 price_changed when the order would charge another',
    ),
});

/** GET /api/quote.php: what an order of this bundle, method and code would charge (same computation). */
export const quoteQuerySchema = z.object({
  bundle: z.coerce.number().int().positive(),
  paymentmethod: z.string().max(20),
  discountcode: z.string().trim().max(40).optional(),
});

export const quoteSchema = z.object({
  bundle: z.number().int(),
  credits: z.number().int(),
  paymentmethod: z.string(),
  list_price: z.number().int().describe('integer cents'),
  amount: z.number().int().describe('what the order charges, integer cents'),
  currency: z.string(),
  discount: z.object({ code: z.string(), value_percentage: z.number().int() }).nullable(),
});
export type Quote = z.infer<typeof quoteSchema>;

/** GET /api/repeat-order.php: the repeat order's bundle, price and method, before the member confirms. */
export const repeatQuoteSchema = quoteSchema.extend({
  stored_mandate: z.boolean().describe('charged on the stored mandate without a checkout'),
});
export type RepeatQuote = z.infer<typeof repeatQuoteSchema>;

/** Discount code (spec §3). */
export const discountCodeSchema = z.object({
  code: z.string(),
  country: z.string().nullable(),
  user_id: z.number().int().nullable(),
  expires: z.string().nullable(),
  value_percentage: z.number().int(),
  currency: z.string().nullable(),
  minimum_order_value: z.number().int(),
  status: z.enum(['active', 'inactive']),
  validity: z.enum(['once_per_user', 'unlimited']),
  expired: z.boolean(),
  paymentmethods: z.array(z.string()),
});
export type DiscountCode = z.infer<typeof discountCodeSchema>;

export const transactionSchema = orderSchema.extend({
  company: z
    .object({
      name: z.string(),
      address: z.string(),
      city: z.string(),
      country: z.string(),
      kvk: z.string(),
      vat_numbers: z.array(z.string()),
    })
    .nullable(),
  company_id: z.number().int().describe("the site's company: its block on the invoice (spec §6)"),
  site: z.string().describe("the site's name"),
  country: z.string().describe('the country the order was priced in: its VAT'),
  vat: z
    .object({
      rate: z.number().describe('percent'),
      net: z.number().int().describe('integer cents without VAT'),
      amount: z.number().int().describe('integer cents of VAT in the amount charged'),
    })
    .describe('the VAT inside the amount charged'),
  tradenames: z.array(z.string()),
  refund_days: z.number().int(),
});

/** The welcome time bonus (spec §9). */
export const timeBonus = { code: 'TIMEBONUS25', percentage: 25, windowSeconds: 14_400 } as const;
