import { z } from 'zod';
import { messageSchema } from './chats.ts';
import { idField, idParam } from './common.ts';
import { locales } from './locales.ts';
import { photoSchema, profileSchema } from './profiles.ts';
import { deviceSessionSchema } from './security.ts';

/** Back-office roles (api-contract.md, Staff calls). */
export const staffRoleOptions = ['operator', 'lead', 'moderator', 'admin'] as const;
export type StaffRole = (typeof staffRoleOptions)[number];

/** How long a claim on a conversation lasts without a reply or renewal. */
export const claimMinutes = 5;
/** A staff sign-in lasts this long. */
export const staffSessionHours = 12;

/** How many conversations a staff member holds at once unless their account says otherwise. */
export const defaultMaxClaims = 2;
/** The most conversations anyone may hold at once. */
export const maxClaimsLimit = 20;

export const staffSchema = z.object({
  id: z.number().int(),
  email: z.string(),
  name: z.string(),
  role: z.enum(staffRoleOptions),
  totp_enabled: z.boolean(),
  passkey_enabled: z
    .boolean()
    .describe('holds a passkey: it counts as the enrolled second factor as TOTP does'),
  outbound: z
    .boolean()
    .describe(
      'an admin let this operator start conversations as a fictional profile (leads and admins may anyway)',
    ),
  language: z.string(),
  active: z.boolean(),
  sites: z.array(z.number().int()).describe('the sites whose members they answer; empty: all'),
  languages: z.array(z.string()).describe('the member languages they answer; empty: all'),
  max_claims: z
    .number()
    .int()
    .nullable()
    .describe(`conversations held at once; null: the default (${defaultMaxClaims})`),
  password_change_required: z
    .boolean()
    .describe('an account an admin created: every call but PUT password.php answers 403 until it is set'),
});
export type Staff = z.infer<typeof staffSchema>;
export const staffResponseSchema = z.object({ staff: staffSchema });
export const staffListResponseSchema = z.object({ staff: z.array(staffSchema) });

const otpCode = z
  .string()
  .trim()
  .regex(/^\d{6}$/, 'invalid');

export const staffLoginSchema = z.object({
  email: z.string().trim().max(254),
  password: z.string().max(200),
  otp: otpCode.optional(),
});

export const totpSetupResponseSchema = z.object({
  secret: z.string(),
  otpauth_url: z.string(),
  qr: z.string().describe('the otpauth URL as an SVG QR code (data: URL) to scan'),
});
export const totpConfirmSchema = z.object({ code: otpCode });

/** A staff member sets their own password (the first thing an account an admin created does). */
export const staffPasswordSchema = z.object({
  current: z.string({ error: 'required' }).min(1, 'required').max(200),
  password: z.string({ error: 'required' }).min(10, 'too_short').max(200, 'too_long'),
});

export const createStaffSchema = z.object({
  email: z.email({ error: 'invalid' }).max(254),
  name: z.string().trim().min(1, 'required').max(80),
  role: z.enum(staffRoleOptions, { error: 'invalid' }),
  password: z.string().min(10, 'too_short').max(200),
  language: z.string().optional(),
});

/** An admin changes a staff member's role, assignment, claim limit or whether the account is active. */
export const updateStaffSchema = z.object({
  id: idField,
  role: z.enum(staffRoleOptions, { error: 'invalid' }).optional(),
  sites: z.array(idField).max(200, 'too_long').optional(),
  languages: z
    .array(z.enum(locales, { error: 'invalid' }))
    .max(locales.length, 'too_long')
    .optional(),
  max_claims: z.number().int().min(1, 'invalid').max(maxClaimsLimit, 'invalid').nullable().optional(),
  active: z.boolean().optional(),
  outbound: z.boolean().optional(),
});
export type UpdateStaff = z.infer<typeof updateStaffSchema>;

export const staffSessionSchema = z.object({
  id: z.number().int(),
  created_at: z.string(),
  expires_at: z.string(),
  user_agent: z.string().nullable(),
  ip: z.string().nullable(),
  current: z.boolean(),
  // The members' device list's fields (contract/security.ts), so one list shows both.
  device: deviceSessionSchema.shape.device,
  place: deviceSessionSchema.shape.place,
  last_used_at: z.string().describe('staff sessions are not touched as they are used: the sign-in time'),
});
export const staffSessionsResponseSchema = z.object({ sessions: z.array(staffSessionSchema) });
export const endSessionSchema = z.union([
  z.object({ id: idField }),
  z.object({ others: z.literal(true).describe('every own session but this one') }),
]);
export const staffSessionsOfQuerySchema = z.object({ staff: idParam });
export const endStaffSessionsSchema = z.object({
  staff: idField,
  id: idField.optional().describe('one session; without it every session of the staff member'),
});
export const endedSessionsSchema = z.object({ ok: z.literal(true), ended: z.number().int() });

export const claimHolderSchema = z.object({ id: z.number().int(), name: z.string() }).nullable();

/** What answering the member may be worth: the queue's value order reads these. */
export const memberValueSchema = z.object({
  credits: z.number().int(),
  paid_user: z.boolean(),
  spent_cents_30d: z.number().int().describe('completed orders in the last 30 days, in cents'),
});
export type MemberValue = z.infer<typeof memberValueSchema>;

export const inboxItemSchema = z.object({
  id: z.number().int(),
  site: z.object({ id: z.number().int(), name: z.string() }),
  member: profileSchema,
  member_language: z.string(),
  member_value: memberValueSchema,
  profile: profileSchema,
  waiting_since: z.string(),
  last_message: messageSchema,
  claimed_by: claimHolderSchema,
  claim_expires_at: z.string().nullable(),
});
export type InboxItem = z.infer<typeof inboxItemSchema>;

export const inboxOrders = ['value', 'oldest'] as const;
export type InboxOrder = (typeof inboxOrders)[number];
/**
 * A page of the queue; `next_cursor` fetches the following one. Two and a half screens of rows on a
 * desktop: operators work from claim-next, the list is for the overview (decision 063).
 */
export const inboxPageSize = 25;

export const inboxQuerySchema = z.object({
  site: idParam.optional(),
  language: z.enum(locales).optional(),
  order: z.enum(inboxOrders).default('value'),
  cursor: z
    .string()
    .max(200)
    .regex(/^[\w.:-]+$/)
    .optional()
    .describe('next_cursor of the previous page'),
});
export const inboxResponseSchema = z.object({
  conversations: z
    .array(inboxItemSchema)
    .describe('waiting and not claimed by anyone, in the asked order (a page at a time)'),
  claimed: z.array(inboxItemSchema).describe('waiting and claimed by an operator now (all of them)'),
  next_cursor: z.string().nullable(),
});
export type InboxPage = z.infer<typeof inboxResponseSchema>;

export const claimNextSchema = z.object({
  site: idField.optional(),
  language: z.enum(locales, { error: 'invalid' }).optional(),
});
export const claimNextResponseSchema = z.object({ conversation: inboxItemSchema });

/**
 * The value order (api-contract.md, the workbench), shared by the server's query and a console that
 * puts a conversation arriving live into its list: first members who paid and still have credits
 * (tier 0, everyone else tier 1); then who waits longest, by the minute; within a minute the larger
 * 30-day spend; then the conversation id.
 */
export function queueKey(item: Pick<InboxItem, 'id' | 'waiting_since' | 'member_value'>) {
  const { paid_user, credits, spent_cents_30d } = item.member_value;
  return [
    paid_user && credits > 0 ? 0 : 1,
    Math.floor(Date.parse(item.waiting_since) / 60_000),
    -spent_cents_30d,
    item.id,
  ] as const;
}

/** Orders two queue rows as the server does for `order` (negative: a comes first). */
export function compareQueue(
  order: InboxOrder,
  a: Pick<InboxItem, 'id' | 'waiting_since' | 'member_value'>,
  b: Pick<InboxItem, 'id' | 'waiting_since' | 'member_value'>,
): number {
  if (order === 'oldest') return Date.parse(a.waiting_since) - Date.parse(b.waiting_since) || a.id - b.id;
  const ka = queueKey(a);
  const kb = queueKey(b);
  for (let index = 0; index < ka.length; index++) {
    const difference = ka[index]! - kb[index]!;
    if (difference !== 0) return difference;
  }
  return 0;
}

export const conversationRefSchema = z.object({ conversation: idField });
export const claimResponseSchema = z.object({
  conversation: z.number().int(),
  claimed_by: claimHolderSchema,
  claim_expires_at: z.string().nullable(),
});
export type ClaimResponse = z.infer<typeof claimResponseSchema>;

/** What kind of fact a note keeps; warnings come first in the console. */
export const noteCategories = ['warnings', 'facts', 'likes', 'dislikes'] as const;
export type NoteCategory = (typeof noteCategories)[number];

export const noteSchema = z.object({
  id: z.number().int(),
  about: z.enum(['member', 'profile']),
  category: z.enum(noteCategories),
  text: z.string(),
  by: z.object({ id: z.number().int(), name: z.string() }),
  at: z.string(),
});
export type Note = z.infer<typeof noteSchema>;
export const createNoteSchema = z.object({
  conversation: idField,
  about: z.enum(['member', 'profile'], { error: 'invalid' }),
  category: z.enum(noteCategories, { error: 'invalid' }).default('facts'),
  text: z.string().trim().min(1, 'required').max(2000, 'too_long'),
});
export const noteResponseSchema = z.object({ note: noteSchema });

// ---- templates and persona sheets

/** The variables a template's text may hold; the console fills them in from the conversation. */
export const templateVariables = ['member_name', 'profile_name', 'member_city', 'member_age'] as const;
export type TemplateVariable = (typeof templateVariables)[number];

export const templateSchema = z.object({
  id: z.number().int(),
  site: z.number().int().nullable().describe('null: every site'),
  language: z.string(),
  title: z.string(),
  text: z.string(),
  updated_at: z.string(),
});
export type Template = z.infer<typeof templateSchema>;
export const templatesQuerySchema = z.object({
  site: idParam.optional(),
  language: z.enum(locales).optional(),
});
const templateFields = {
  site: idField.nullable().optional(),
  language: z.enum(locales, { error: 'invalid' }),
  title: z.string({ error: 'required' }).trim().min(1, 'required').max(80, 'too_long'),
  text: z.string({ error: 'required' }).trim().min(1, 'required').max(2000, 'too_long'),
};
export const createTemplateSchema = z.object(templateFields);
export const updateTemplateSchema = z.object({
  id: idField,
  site: templateFields.site,
  language: templateFields.language.optional(),
  title: templateFields.title.optional(),
  text: templateFields.text.optional(),
});
export const templateRefSchema = z.object({ id: idField });
export const templatesResponseSchema = z.object({ templates: z.array(templateSchema) });
export const templateResponseSchema = z.object({ template: templateSchema });

/**
 * Fills a template in for one conversation; a variable without a value (a member without a city)
 * becomes empty rather than showing its braces to the member.
 */
export function fillTemplate(text: string, values: Record<TemplateVariable, string>): string {
  return text.replace(
    /\{(member_name|profile_name|member_city|member_age)\}/g,
    (_, name: TemplateVariable) => values[name],
  );
}

export const personaFields = ['job', 'city', 'family', 'hobbies', 'style', 'other'] as const;
export type PersonaField = (typeof personaFields)[number];
const personaText = z.string().trim().max(1000, 'too_long');
export const personaFactsSchema = z.object({
  job: personaText.optional(),
  city: personaText.optional(),
  family: personaText.optional(),
  hobbies: personaText.optional(),
  style: personaText.optional(),
  other: personaText.optional(),
});
export type PersonaFacts = z.infer<typeof personaFactsSchema>;
export const personaSchema = z.object({
  profile: z.number().int(),
  facts: personaFactsSchema,
  updated_at: z.string().nullable().describe('null: nobody has written the sheet yet'),
  updated_by: z.object({ id: z.number().int(), name: z.string() }).nullable(),
});
export type Persona = z.infer<typeof personaSchema>;
export const personaQuerySchema = z.object({ profile: idParam });
export const updatePersonaSchema = z.object({ profile: idField, facts: personaFactsSchema });
export const personaResponseSchema = z.object({ persona: personaSchema });

/** What the console shows about the member beside the conversation. */
export const dossierSchema = z.object({
  seeking: z.string().nullable().describe('the gender the member looks for'),
  countryregion: z.string().nullable(),
  photos: z.array(photoSchema),
  spent_cents_total: z.number().int(),
  last_purchase_at: z.string().nullable(),
  last_seen_at: z.string().describe('date and time'),
  online: z.boolean(),
  conversations: z
    .array(
      z.object({
        id: z.number().int(),
        profile: z.object({ id: z.number().int(), name: z.string() }),
        last_message_at: z.string().nullable(),
        answered_by: z.object({ id: z.number().int(), name: z.string() }).nullable(),
      }),
    )
    .describe('the member’s other conversations with fictional profiles, newest first'),
  reports: z.array(z.object({ id: z.number().int(), reason: z.string(), at: z.string() })),
});
export type Dossier = z.infer<typeof dossierSchema>;

/** A message as staff see it: `mine` means sent by the fictional profile. */
/** A message as the staff views show it: also whether no one typed it (an opener script, a mass message). */
export const staffMessageSchema = messageSchema.extend({
  automated: z.boolean().describe('sent by an opener script or a mass message, not typed by anyone'),
});
export type StaffMessage = z.infer<typeof staffMessageSchema>;

export const adminConversationResponseSchema = z.object({
  conversation: z.object({
    id: z.number().int(),
    site: z.object({ id: z.number().int(), name: z.string() }),
    claimed_by: claimHolderSchema,
    claim_expires_at: z.string().nullable(),
  }),
  member: z.object({
    profile: profileSchema,
    user: z.object({
      id: z.number().int(),
      status: z.string(),
      credits: z.number().int(),
      paid_user: z.boolean(),
      language: z.string(),
      signup_date: z.string(),
      last_seen: z.string(),
    }),
    dossier: dossierSchema,
  }),
  profile: profileSchema,
  profile_photos: z.array(photoSchema),
  persona: personaSchema,
  messages: z.array(staffMessageSchema),
  notes: z.array(noteSchema),
});
export type AdminConversation = z.infer<typeof adminConversationResponseSchema>;
export const conversationQuerySchema = z.object({ id: idParam });

export const replySchema = z
  .object({
    conversation: idField,
    text: z.string().max(5000).optional(),
    photo: idField.optional(),
  })
  .refine((body) => (body.text === undefined) !== (body.photo === undefined), {
    message: 'required',
    path: ['text'],
  });
export const replyResponseSchema = z.object({ message: messageSchema });

const statsDay = z.iso.date({ error: 'invalid_date' });

/** The range of the operators' numbers: UTC days, both included (today when left out), at most 400. */
export const operatorStatsQuerySchema = z
  .object({
    from: statsDay.optional(),
    to: statsDay.optional(),
    staff: idParam
      .optional()
      .describe('one staff member (leads and admins); an operator always sees their own'),
    site: idParam.optional().describe('replies in conversations of this site’s members only'),
  })
  .refine((query) => !query.from || !query.to || query.from <= query.to, {
    error: 'out_of_range',
    path: ['to'],
  })
  .refine(
    (query) => !query.from || !query.to || (Date.parse(query.to) - Date.parse(query.from)) / 86_400_000 < 400,
    { error: 'out_of_range', path: ['from'] },
  );
export type OperatorStatsQuery = z.infer<typeof operatorStatsQuerySchema>;

export const operatorNumbersSchema = z.object({
  staff: z.object({ id: z.number().int(), name: z.string(), role: z.enum(staffRoleOptions) }),
  replies: z.number().int(),
  conversations: z.number().int().describe('conversations the staff member replied in'),
  median_reply_seconds: z.number().int().nullable(),
  p90_reply_seconds: z.number().int().nullable(),
  earned_credits: z
    .number()
    .int()
    .describe(
      'credits members spent in those conversations within 24 h after each reply, up to the profile’s next message',
    ),
  reports: z.number().int().describe('member reports about messages the staff member wrote'),
});
export type OperatorNumbers = z.infer<typeof operatorNumbersSchema>;

export const operatorStatsSchema = z.object({
  from: z.string(),
  to: z.string(),
  replies_today: z.number().int(),
  median_reply_seconds: z.number().int().nullable(),
  waiting: z.array(z.object({ site: z.number().int(), name: z.string(), count: z.number().int() })),
  operators: z
    .array(operatorNumbersSchema)
    .describe('over from … to: every staff member who may answer (admins), or the caller’s own row'),
});
export type OperatorStats = z.infer<typeof operatorStatsSchema>;

export const auditQuerySchema = z.object({
  staff: idParam.optional(),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
});
export const auditEntrySchema = z.object({
  id: z.number().int(),
  at: z.string(),
  staff: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  action: z.string(),
  object: z.string().nullable(),
  ip: z.string().nullable(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;
export const auditResponseSchema = z.object({ entries: z.array(auditEntrySchema) });

/**
 * Live events on GET /api/admin/ws, to the staff who may see the conversation: `inbox` carries the
 * queue's change (a row added or updated, or removed by id), `claim` who holds it now (null:
 * released), `message` goes only to the operator holding the conversation.
 */
export type AdminEvent =
  | { type: 'ready' }
  | { type: 'inbox'; op: 'add' | 'update'; conversation: InboxItem }
  | { type: 'inbox'; op: 'remove'; conversation: { id: number } }
  | {
      type: 'claim';
      conversation: number;
      claimed_by: { id: number; name: string } | null;
      claim_expires_at: string | null;
    }
  | { type: 'message'; conversation: number; message: z.infer<typeof messageSchema> };
