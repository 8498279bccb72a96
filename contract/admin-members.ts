import { z } from 'zod';
import { idField, idParam } from './common.ts';
import { photoHoldReasonOptions, photoStatusOptions } from './profiles.ts';

/** Back office: members and moderation (api-contract.md, Staff calls). */

export const memberStatusOptions = [
  'not_confirmed',
  'active',
  'pending_deletion',
  'deleted',
  'banned',
] as const;
export type MemberStatus = (typeof memberStatusOptions)[number];
export const reportReasonOptions = ['spam', 'scam', 'offensive', 'underage', 'other'] as const;
export const reportActionOptions = ['dismiss', 'warn', 'remove_photo', 'ban'] as const;
export type ReportAction = (typeof reportActionOptions)[number];
/** What a handled report may say was done: a lead resolves a report about a fictional profile (contract/supervision.ts). */
export const handledReportActions = [...reportActionOptions, 'resolve'] as const;

/** Why a staff member acts: required on every member action, kept in the audit log. */
export const actionReasonSchema = z.string().trim().min(1, 'required').max(500, 'too_long');

export const membersQuerySchema = z.object({
  q: z.string().trim().max(254).optional().describe('e-mail, name, or a profile/user id'),
  site: idParam.optional(),
  status: z.enum(memberStatusOptions).optional(),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
});

export const memberSummarySchema = z.object({
  profile: z.object({
    id: z.number().int(),
    name: z.string(),
    country: z.string(),
    status: z.string(),
  }),
  user: z.object({
    id: z.number().int(),
    email: z.string().nullable(),
    site: z.object({ id: z.number().int(), name: z.string() }),
    status: z.enum(memberStatusOptions),
    credits: z.number().int(),
    paid_user: z.boolean(),
    chargeback_at: z.string().nullable().describe('when a payment of the member was charged back'),
    language: z.string(),
    signup_date: z.string(),
    last_login: z.string().nullable(),
  }),
  reports_about: z.number().int().describe('reports of this member: repeat offenders at a glance'),
});
export type MemberSummary = z.infer<typeof memberSummarySchema>;
export const membersResponseSchema = z.object({
  members: z.array(memberSummarySchema),
  total: z.number().int(),
});

export const memberQuerySchema = z.object({ id: idParam });

export const reportSchema = z.object({
  id: z.number().int(),
  status: z.enum(['open', 'handled']),
  reason: z.enum(reportReasonOptions),
  text: z.string().nullable(),
  created_at: z.string(),
  reporter: z.object({
    user_id: z.number().int(),
    profile_id: z.number().int().nullable(),
    name: z.string(),
  }),
  reported: z
    .object({
      profile_id: z.number().int(),
      name: z.string(),
      user_status: z.enum(memberStatusOptions),
      reports_about: z.number().int(),
      photos: z.array(z.object({ id: z.number().int(), thumb_url: z.string() })),
    })
    .nullable(),
  evidence: z
    .object({ message_id: z.number().int(), text: z.string().nullable(), kind: z.string(), at: z.string() })
    .nullable()
    .describe('the reported message, when a message was reported'),
  action: z.enum(handledReportActions).nullable(),
  handled_by: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  handled_at: z.string().nullable(),
});
export type Report = z.infer<typeof reportSchema>;

/** What the screening models said: nsfwjs's label scores (0–1), faces found, the youngest apparent age. */
export const photoScreeningSchema = z.object({
  nudity: z.record(z.string(), z.number()),
  faces: z.number().int(),
  min_age_estimate: z.number().nullable(),
  error: z.string().optional().describe('why the check could not run (hold_reason check_failed)'),
});

export const memberPhotoSchema = z.object({
  id: z.number().int(),
  url: z.string(),
  thumb_url: z.string(),
  moderation: z.enum(['pending', 'approved']),
  status: z.enum(photoStatusOptions),
  hold_reason: z.enum(photoHoldReasonOptions).nullable(),
  screening: photoScreeningSchema.nullable().describe('null while under screening'),
  created_at: z.string(),
});
export type MemberPhoto = z.infer<typeof memberPhotoSchema>;

export const memberDetailSchema = z.object({
  member: memberSummarySchema,
  profile: z.object({
    gender: z.string().nullable(),
    seeking: z.string().nullable(),
    birthdate: z.string(),
    countryregion: z.string().nullable(),
    about: z.string().nullable(),
    interests: z.array(z.string()),
  }),
  photos: z.array(memberPhotoSchema),
  sessions: z.array(
    z.object({
      created_at: z.string(),
      last_seen_at: z.string(),
      expires_at: z.string(),
      user_agent: z.string().nullable(),
    }),
  ),
  orders: z.array(
    z.object({
      id: z.number().int(),
      status: z.string(),
      credits: z.number().int(),
      amount_cents: z.number().int(),
      currency: z.string(),
      payment_method: z.string(),
      provider: z.string(),
      provider_payment_id: z.string().nullable(),
      created_at: z.string(),
    }),
  ),
  ledger: z.array(
    z.object({
      id: z.number().int(),
      delta: z.number().int(),
      balance_after: z.number().int(),
      reason: z.string(),
      reference: z.string().nullable(),
      staff: z.object({ id: z.number().int(), name: z.string() }).nullable(),
      note: z.string().nullable(),
      at: z.string(),
    }),
  ),
  reports_by: z.array(reportSchema),
  reports_about: z.array(reportSchema),
  notifications_disabled: z.array(z.string()),
  trafficsource: z.record(z.string(), z.string()).nullable(),
});
export type MemberDetail = z.infer<typeof memberDetailSchema>;

export const setMemberStatusSchema = z.object({
  id: idField.describe("the member's profile id"),
  status: z.enum(['active', 'banned'], { error: 'invalid' }),
  reason: actionReasonSchema,
});
export const memberStatusResponseSchema = z.object({
  user: z.object({ id: z.number().int(), status: z.enum(memberStatusOptions) }),
});

export const memberActionSchema = z.object({
  member: idField.describe("the member's profile id"),
  reason: actionReasonSchema,
});

export const removePhotoSchema = z.object({
  photo: idField,
  reason: actionReasonSchema,
});

export const creditCorrectionSchema = z.object({
  member: idField.describe("the member's profile id"),
  amount: z
    .number()
    .int()
    .min(-1_000_000)
    .max(1_000_000)
    .refine((value) => value !== 0, 'invalid'),
  reason: actionReasonSchema,
});
export const creditsResponseSchema = z.object({ credits: z.number().int() });

export const refundSchema = z.object({
  order: idField,
  reason: actionReasonSchema,
  amount_cents: z
    .number()
    .int()
    .min(1)
    .max(100_000_000)
    .optional()
    .describe('a partial refund: the integer cents to pay back (absent: the whole amount)'),
  credits: z
    .number()
    .int()
    .min(0)
    .max(10_000_000)
    .optional()
    .describe(
      'the credits the refund takes back (absent: all for a whole refund, the same share for a part)',
    ),
});
export const refundResponseSchema = z.object({
  order: z.object({ id: z.number().int(), status: z.string() }),
  credits: z.number().int(),
});

export const reportsQuerySchema = z.object({
  status: z.enum(['open', 'handled', 'all']).default('all'),
});
export const reportsResponseSchema = z.object({ reports: z.array(reportSchema) });
export const handleReportSchema = z.object({
  id: idField,
  action: z.enum(reportActionOptions, { error: 'invalid' }),
  reason: actionReasonSchema,
  photo: idField.optional().describe('remove_photo: which photo of the reported member'),
});
export const reportResponseSchema = z.object({ report: reportSchema });

export const photoQueueItemSchema = z.object({
  photo: memberPhotoSchema,
  member: z.object({
    profile_id: z.number().int(),
    name: z.string(),
    site: z.string(),
    reports_about: z.number().int(),
  }),
});
export type PhotoQueueItem = z.infer<typeof photoQueueItemSchema>;
/** A photo sent in a chat that the screening held: no one but its sender has seen it (decision 060). */
export const chatPhotoQueueItemSchema = z.object({
  id: z.number().int(),
  url: z.string(),
  thumb_url: z.string(),
  hold_reason: z.enum(photoHoldReasonOptions),
  screening: photoScreeningSchema,
  credits: z.number().int().describe('what the sender paid; given back on a rejection'),
  created_at: z.string(),
  sender: z.object({ profile_id: z.number().int(), name: z.string(), site: z.string() }),
  recipient: z.object({ profile_id: z.number().int(), name: z.string() }),
});
export type ChatPhotoQueueItem = z.infer<typeof chatPhotoQueueItemSchema>;
export const photoQueueResponseSchema = z.object({
  photos: z.array(photoQueueItemSchema),
  chat_photos: z.array(chatPhotoQueueItemSchema).describe('held chat photos, apparent minors first'),
});
export const chatPhotoDecisionSchema = z.object({
  id: idField,
  decision: z.enum(['approve', 'reject'], { error: 'invalid' }),
});
/**
 * What became of a held chat photo: `withdrawn` when it was approved but the two members blocked
 * each other since (or the recipient left): not delivered, its price given back.
 */
export const chatPhotoDecisionResponseSchema = z.object({
  ok: z.literal(true),
  status: z.enum(['delivered', 'rejected', 'withdrawn']),
});
export const photoDecisionSchema = z
  .object({
    photo: idField,
    decision: z.enum(['approve', 'reject'], { error: 'invalid' }),
    reason: z.string().trim().max(500, 'too_long').optional(),
  })
  .refine((body) => body.decision === 'approve' || Boolean(body.reason), {
    message: 'required',
    path: ['reason'],
  });

// ---- strikes and appeals (decision 054)

export const appealsQuerySchema = z.object({
  status: z.enum(['open', 'decided', 'all'], { error: 'invalid' }).default('open'),
});
export const appealQueueItemSchema = z.object({
  id: z.number().int(),
  status: z.enum(['open', 'granted', 'refused']),
  text: z.string(),
  created_at: z.string(),
  decided_at: z.string().nullable(),
  decided_by: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  strike: z.object({
    id: z.number().int(),
    number: z.number().int(),
    consequence: z.enum(['strike', 'suspension', 'ban']),
    suspended_until: z.string().nullable(),
    created_at: z.string(),
    report_id: z.number().int().nullable(),
    lifted: z.boolean(),
  }),
  member: z.object({ profile_id: z.number().int(), name: z.string(), site: z.string() }),
});
export type AppealQueueItem = z.infer<typeof appealQueueItemSchema>;
export const appealsResponseSchema = z.object({ appeals: z.array(appealQueueItemSchema) });
export const decideAppealSchema = z.object({
  id: idField,
  decision: z.enum(['grant', 'refuse'], { error: 'invalid' }),
  reason: actionReasonSchema,
});
export const appealDecisionResponseSchema = z.object({ appeal: appealQueueItemSchema });
