import { z } from 'zod';

export const bundleSchema = z.object({
  id: z.number().int(),
  credits: z.number().int(),
  price: z.number().int().describe('integer cents'),
  currency: z.string(),
});

export const bundlesResponseSchema = z.object({
  bundles: z.array(bundleSchema),
  paymentmethods: z.array(z.string()),
  country: z.string(),
});
export type BundlesResponse = z.infer<typeof bundlesResponseSchema>;

export const orderStatusSchema = z.enum(['pending', 'completed', 'failed', 'cancelled', 'refunded']);

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
  bundle: z.number().int().positive(),
  paymentmethod: z.string().max(20),
  discountcode: z.string().trim().max(40).optional(),
});

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
  refund_days: z.number().int(),
});

/** The welcome time bonus (spec §9). */
export const timeBonus = { code: 'TIMEBONUS25', percentage: 25, windowSeconds: 14_400 } as const;
