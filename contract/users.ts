import { z } from 'zod';

export const trafficSourceSchema = z.object({
  network: z.string().max(100).optional(),
  ref: z.string().max(100).optional(),
  sub1: z.string().max(200).optional(),
  sub2: z.string().max(200).optional(),
  sub3: z.string().max(200).optional(),
});
export type TrafficSource = z.infer<typeof trafficSourceSchema>;

export const imageSchema = z.object({
  filename: z.string().describe('URL of the main size'),
  thumb_filename: z.string().describe('URL of the thumbnail'),
  match: z.string().describe('URL of the picture used in the like/match modal'),
});

/** The member's own profile as the top bar and alerts need it; the full profile lives in profiles. */
export const ownProfileSummarySchema = z.object({
  id: z.number().int(),
  name: z.string(),
  country: z.string(),
  status: z.enum(['active', 'disabled']),
  main_image: imageSchema.nullable(),
  complete: z.boolean().describe('gender, whom they seek and something about themselves are filled in'),
});

/** User of api-contract.md (spec §3). */
export const userSchema = z.object({
  id: z.number().int(),
  email: z.string(),
  status: z.enum(['not_confirmed', 'active', 'pending_deletion', 'banned']),
  credits: z.number().int(),
  paid_user: z.boolean(),
  trafficsource: trafficSourceSchema.nullable(),
  signup_date: z.string(),
  fictional_icon: z.boolean(),
  language: z.string(),
  notifications_disabled: z.array(z.string()),
  profile: ownProfileSummarySchema,
});
export type User = z.infer<typeof userSchema>;

export const userResponseSchema = z.object({ user: userSchema.nullable() });
export type UserResponse = z.infer<typeof userResponseSchema>;
