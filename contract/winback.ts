import { z } from 'zod';
import { idField } from './common.ts';

/** A site's win-back rule (api-contract.md, "Staff calls — engagement"). */
export const winbackRuleSchema = z.object({
  site: idField,
  active: z.boolean(),
  inactive_days: z.number().int().min(1).max(3650).describe('days without activity before the offer'),
  value_percentage: z.number().int().min(1).max(100).describe('the personal code’s discount'),
  validity_days: z.number().int().min(1).max(365).describe('how long the code can be used'),
  repeat_after_days: z
    .number()
    .int()
    .min(1)
    .max(3650)
    .describe('the least number of days between two offers to one member'),
});
export type WinbackRule = z.infer<typeof winbackRuleSchema>;

export const winbackQuerySchema = z.object({ site: z.coerce.number().int().positive() });

export const winbackResultsSchema = z.object({
  sent: z.number().int().describe('offers mailed'),
  redeemed: z.number().int().describe('offers whose code was used at checkout'),
});

export const winbackResponseSchema = z.object({ rule: winbackRuleSchema, results: winbackResultsSchema });
export type WinbackResponse = z.infer<typeof winbackResponseSchema>;
