import { z } from 'zod';
import { staffRoleOptions } from './admin.ts';
import { reportReasonOptions } from './admin-members.ts';
import { messageSchema } from './chats.ts';
import { idField, idParam } from './common.ts';

/** How long after their last action a staff member counts as online on the board. */
export const boardOnlineMinutes = 5;

export const boardQuerySchema = z.object({ site: idParam.optional() });

const named = z.object({ id: z.number().int(), name: z.string() });

export const boardQueueSchema = z.object({
  site: named,
  language: z.string(),
  waiting: z.number().int(),
  oldest_waiting_since: z.string().nullable(),
  sla_breaches: z.number().int().describe("conversations waiting longer than the site's reply target"),
  reply_target_minutes: z.number().int(),
});
export type BoardQueue = z.infer<typeof boardQueueSchema>;

export const boardOperatorSchema = z.object({
  staff: z.object({ id: z.number().int(), name: z.string(), role: z.enum(staffRoleOptions) }),
  online: z.boolean().describe(`signed in and active in the last ${boardOnlineMinutes} minutes`),
  claims: z.number().int().describe('conversations held now'),
  replies_last_hour: z.number().int(),
  started_last_hour: z.number().int().describe('conversations started as a fictional profile'),
  last_active_at: z.string().nullable(),
});
export type BoardOperator = z.infer<typeof boardOperatorSchema>;

export const boardReportSchema = z.object({
  report: z.object({
    id: z.number().int(),
    reason: z.enum(reportReasonOptions),
    text: z.string().nullable(),
    created_at: z.string(),
    reporter: z.object({ profile_id: z.number().int().nullable(), name: z.string() }),
    message: z
      .object({ id: z.number().int(), text: z.string().nullable(), at: z.string(), automated: z.boolean() })
      .nullable()
      .describe('the reported message; null when the profile itself was reported'),
    conversation: z.number().int().nullable(),
  }),
  profile: z.object({ id: z.number().int(), name: z.string(), site: named }),
  operator: named.nullable().describe('who wrote the reported message; null for a script or no message'),
});
export type BoardReport = z.infer<typeof boardReportSchema>;

export const boardResponseSchema = z.object({
  queues: z.array(boardQueueSchema),
  operators: z.array(boardOperatorSchema),
  reports: z.array(boardReportSchema),
  at: z.string().describe('when the board was read'),
});
export type Board = z.infer<typeof boardResponseSchema>;

/** How a lead closes a report about a fictional profile: never a ban, the profile is the business's own. */
export const boardReportActions = ['dismiss', 'resolve'] as const;
export const resolveBoardReportSchema = z.object({
  report: idField,
  action: z.enum(boardReportActions, { error: 'invalid' }),
});
export const resolvedBoardReportSchema = z.object({ ok: z.literal(true), report: z.number().int() });

/** The first message from a fictional profile to a member (api-contract.md, the workbench). */
export const outboundSchema = z.object({
  profile: idField.describe('the fictional profile that writes'),
  member: idField.describe("the member's profile id"),
  text: z.string({ error: 'required' }).trim().min(1, 'required').max(5000, 'too_long'),
  client_id: z
    .string()
    .regex(/^[\w-]{8,64}$/, 'invalid')
    .optional()
    .describe('a repeat with the same id returns the first message'),
});
export const outboundResponseSchema = z.object({ conversation: z.number().int(), message: messageSchema });

export const outboundQuerySchema = z.object({ member: idParam });
export const outboundOptionsSchema = z.object({
  member: z.object({ id: z.number().int(), name: z.string(), site: named }),
  profiles: z
    .array(named)
    .describe(
      "the active fictional profiles of the member's site the caller may write as (the first 200 by name)",
    ),
});
