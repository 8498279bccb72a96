import { z } from 'zod';
import { formIdField, idParam } from './common.ts';
import { locales } from './locales.ts';

/** The variables an opener or mass message may use; each is replaced with the recipient's own. */
export const messageVariables = ['member_name', 'profile_name', 'member_city'] as const;

/** Steps of one script, and the longest wait of a step after the member's activation (30 days). */
export const maxOpenerSteps = 10;
export const maxAfterMinutes = 43_200;
export const maxAutomatedText = 2000;

/** A text whose `{…}` names are all known variables. */
const automatedText = z
  .string({ error: 'required' })
  .trim()
  .min(1, { error: 'required' })
  .max(maxAutomatedText, { error: 'too_long' })
  .refine(
    (text) =>
      [...text.matchAll(/\{([^{}]*)\}/g)].every((match) =>
        (messageVariables as readonly string[]).includes(match[1] ?? ''),
      ),
    { error: 'unknown_variable' },
  )
  .describe('plain text; {member_name}, {profile_name} and {member_city} are replaced per member');

export const openerStepSchema = z
  .object({
    after_minutes: z
      .number({ error: 'required' })
      .int({ error: 'invalid' })
      .min(0, { error: 'invalid' })
      .max(maxAfterMinutes, { error: 'invalid' })
      .describe("minutes after the member's activation"),
    kind: z.enum(['like', 'visit', 'message'], { error: 'invalid' }),
    text: automatedText.nullable().optional().describe('the message of a message step'),
  })
  .superRefine((step, ctx) => {
    if (step.kind === 'message' && !step.text)
      ctx.addIssue({ code: 'custom', message: 'required', path: ['text'] });
  });
export type OpenerStepInput = z.input<typeof openerStepSchema>;

export const openerProfilesSchema = z.object({
  same_country: z.boolean().optional().describe("only profiles of the member's country (default true)"),
  matches_seeking: z
    .boolean()
    .optional()
    .describe('only profiles of the gender the member looks for, who look for theirs (default true)'),
});

export const openerScriptInputSchema = z.object({
  site: formIdField,
  language: z.enum(locales, { error: 'invalid' }),
  active: z.boolean(),
  steps: z.array(openerStepSchema).min(1, { error: 'required' }).max(maxOpenerSteps, { error: 'too_many' }),
  profiles: openerProfilesSchema.optional(),
});
export type OpenerScriptInput = z.infer<typeof openerScriptInputSchema>;
export const updateOpenerScriptSchema = openerScriptInputSchema.extend({ id: formIdField });
export const deleteOpenerScriptSchema = z.object({ id: formIdField });
export const openersQuerySchema = z.object({
  site: idParam.optional().describe('one site; all when left out'),
});

export const openerScriptSchema = z.object({
  id: z.number().int(),
  site: z.number().int(),
  language: z.string(),
  active: z.boolean(),
  steps: z.array(
    z.object({
      after_minutes: z.number().int(),
      kind: z.enum(['like', 'visit', 'message']),
      text: z.string().nullable(),
    }),
  ),
  profiles: z.object({ same_country: z.boolean(), matches_seeking: z.boolean() }),
  results: z
    .object({
      sent: z.number().int().describe('members who got at least one step'),
      replied: z.number().int().describe('of them, members who wrote to the profile after it'),
      paid_within_7d: z.number().int().describe('of them, members whose first payment came within 7 days'),
    })
    .describe("the script's results"),
  created_at: z.string(),
  updated_at: z.string(),
});
export type OpenerScript = z.infer<typeof openerScriptSchema>;
export const openerScriptsResponseSchema = z.object({ scripts: z.array(openerScriptSchema) });
export const openerScriptResponseSchema = z.object({ script: openerScriptSchema });
export const deletedResponseSchema = z.object({ id: z.number().int() });

const day = z.iso.date({ error: 'invalid_date' });
const age = z
  .number({ error: 'invalid' })
  .int({ error: 'invalid' })
  .min(18, { error: 'invalid' })
  .max(120, { error: 'invalid' });

export const segmentSchema = z
  .object({
    site: formIdField,
    country: z
      .string()
      .regex(/^[A-Z]{2}$/, { error: 'invalid' })
      .optional(),
    gender: z.enum(['male', 'female'], { error: 'invalid' }).optional(),
    min_age: age.optional(),
    max_age: age.optional(),
    paid_user: z.boolean().optional(),
    signed_up_after: day.optional().describe('YYYY-MM-DD: signed up on or after this day'),
    active_after: day.optional().describe('YYYY-MM-DD: active on or after this day'),
    has_photo: z.boolean().optional(),
  })
  .superRefine((segment, ctx) => {
    if (segment.min_age !== undefined && segment.max_age !== undefined && segment.min_age > segment.max_age)
      ctx.addIssue({ code: 'custom', message: 'invalid', path: ['max_age'] });
  });
export type Segment = z.infer<typeof segmentSchema>;

export const massMessageSchema = z.object({
  profile: formIdField.describe('the fictional profile that writes'),
  text: automatedText,
  segment: segmentSchema,
  preview: z.boolean().optional().describe('true: only count the members'),
});
export type MassMessageInput = z.input<typeof massMessageSchema>;

export const campaignStatusSchema = z.enum(['queued', 'sending', 'done']);
export const massMessageAnswerSchema = z.union([
  z.object({ count: z.number().int().describe('members of the segment') }),
  z.object({
    campaign: z.object({ id: z.number().int(), status: campaignStatusSchema, count: z.number().int() }),
  }),
]);

export const campaignSchema = z.object({
  id: z.number().int(),
  status: campaignStatusSchema,
  site: z.number().int(),
  profile: z.object({ id: z.number().int(), name: z.string() }),
  text: z.string(),
  count: z.number().int().describe('members of the segment when it was queued'),
  sent: z.number().int(),
  skipped: z.number().int().describe('blocked the profile or opted out by the time their turn came'),
  replied: z.number().int().describe('members who wrote to the profile after the message'),
  created_at: z.string(),
  finished_at: z.string().nullable(),
});
export type Campaign = z.infer<typeof campaignSchema>;
export const campaignsQuerySchema = z.object({ id: idParam.optional().describe('one campaign') });
export const campaignsResponseSchema = z.object({ campaigns: z.array(campaignSchema) });
