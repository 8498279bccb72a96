import { z } from 'zod';
import { idField } from './common.ts';

// A member's standing: strikes from moderators' warnings, what they led to, and appeals (decision 054).

export const strikeConsequenceOptions = ['strike', 'suspension', 'ban'] as const;
export const appealStatusOptions = ['open', 'granted', 'refused'] as const;

export const appealSchema = z.object({
  id: z.number().int(),
  status: z.enum(appealStatusOptions),
  text: z.string(),
  created_at: z.string(),
  decided_at: z.string().nullable(),
});

export const strikeSchema = z.object({
  id: z.number().int(),
  number: z.number().int().describe('which standing strike it was when given (1, 2, …)'),
  consequence: z.enum(strikeConsequenceOptions),
  suspended_until: z.string().nullable(),
  created_at: z.string(),
  lifted: z.boolean().describe('an appeal was granted: the strike no longer counts'),
  appeal: appealSchema.nullable().describe('null: the member may still appeal this action'),
});

export const standingResponseSchema = z.object({
  strikes: z.array(strikeSchema),
  standing_strikes: z.number().int(),
  suspend_at: z.number().int().describe('the standing strike that suspends posting; the next one bans'),
  suspension_days: z.number().int(),
  posting_suspended_until: z.string().nullable(),
});
export type Standing = z.infer<typeof standingResponseSchema>;
export type Strike = z.infer<typeof strikeSchema>;

export const appealBodySchema = z.object({
  strike: idField,
  text: z.string().trim().min(1, 'required').max(2000, 'too_long'),
});
export const appealResponseSchema = z.object({ appeal: appealSchema });
