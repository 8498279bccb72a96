import {
  adminConversationResponseSchema,
  claimNextResponseSchema,
  claimNextSchema,
  claimResponseSchema,
  conversationQuerySchema,
  conversationRefSchema,
  createNoteSchema,
  createTemplateSchema,
  inboxQuerySchema,
  inboxResponseSchema,
  noteResponseSchema,
  operatorStatsQuerySchema,
  operatorStatsSchema,
  personaQuerySchema,
  personaResponseSchema,
  replyResponseSchema,
  replySchema,
  templateRefSchema,
  templateResponseSchema,
  templatesQuerySchema,
  templatesResponseSchema,
  updatePersonaSchema,
  updateTemplateSchema,
} from '../admin.ts';
import { csvFileSchema, okSchema } from '../common.ts';
import { defineEndpoint } from '../endpoint.ts';
import { staffErrors } from './backoffice.ts';

const errors = staffErrors;
const tags = ['admin'] as const;
/** What any working staff call answers before the account is ready (its own password, TOTP). */
const gates = ['staff_required', 'password_change_required', 'otp_enrolment_required', 'forbidden'] as const;

/** The operator console (api-contract.md, Staff calls and the workbench), declared once each. */
export const operatorEndpoints = {
  getWs: defineEndpoint({
    method: 'GET',
    path: '/api/admin/ws',
    tags,
    summary:
      'WebSocket of live back-office events for staff (AdminEvent frames): queue rows entering, changing and leaving, claims, and messages of the conversations the operator holds',
  }),
  getInbox: defineEndpoint({
    method: 'GET',
    path: '/api/admin/inbox.php',
    tags,
    summary:
      'The queue the caller may answer (their sites and languages). `order=value` (default): members who paid and have credits left first, then the longest waiting (by the minute), then the larger 30-day spend; `order=oldest`: longest waiting first. A page of unclaimed rows at a time (`next_cursor`), the claimed ones in `claimed`',
    query: inboxQuerySchema,
    responses: { 200: inboxResponseSchema, ...errors },
    errors: [...gates],
  }),
  postNext: defineEndpoint({
    method: 'POST',
    path: '/api/admin/next.php',
    tags,
    summary:
      'Claims the best waiting conversation the caller may answer (the value order) and answers it. 404 queue_empty; 409 claim_limit when the caller holds max_claims already',
    body: claimNextSchema,
    responses: { 200: claimNextResponseSchema, ...errors },
    errors: [...gates, 'queue_empty', 'claim_limit'],
  }),
  postClaim: defineEndpoint({
    method: 'POST',
    path: '/api/admin/claim.php',
    tags,
    summary: 'Claims a conversation for 5 minutes (renews the own claim). 409 claimed; 409 claim_limit',
    body: conversationRefSchema,
    responses: { 200: claimResponseSchema, ...errors },
    errors: [...gates, 'claimed', 'claim_limit'],
  }),
  deleteClaim: defineEndpoint({
    method: 'DELETE',
    path: '/api/admin/claim.php',
    tags,
    summary: 'Gives the caller’s own claim back to the queue',
    body: conversationRefSchema,
    responses: { 200: okSchema, ...errors },
    errors: [...gates],
  }),
  postTyping: defineEndpoint({
    method: 'POST',
    path: '/api/admin/typing.php',
    tags,
    summary: 'The operator is typing: renews the claim; the member sees the profile typing',
    body: conversationRefSchema,
    responses: { 200: okSchema, ...errors },
    errors: [...gates, 'claimed'],
  }),
  getConversation: defineEndpoint({
    method: 'GET',
    path: '/api/admin/conversation.php',
    tags,
    summary:
      'A member ↔ fictional profile conversation with both profiles, the member’s dossier (photos, spend, other conversations, reports), the profile’s persona sheet and the notes (audited)',
    query: conversationQuerySchema,
    responses: { 200: adminConversationResponseSchema, ...errors },
    errors: [...gates],
  }),
  postReply: defineEndpoint({
    method: 'POST',
    path: '/api/admin/reply.php',
    tags,
    summary: 'Replies as the fictional profile (text or one of its photos); free of credits. 409 claimed',
    body: replySchema,
    responses: { 201: replyResponseSchema, ...errors },
    errors: [...gates, 'claimed'],
  }),
  postNote: defineEndpoint({
    method: 'POST',
    path: '/api/admin/notes.php',
    tags,
    summary:
      'A note about the member or the fictional profile, in a category (likes, dislikes, facts, warnings); it follows them into every conversation',
    body: createNoteSchema,
    responses: { 201: noteResponseSchema, ...errors },
    errors: [...gates],
  }),
  getOperatorStats: defineEndpoint({
    method: 'GET',
    path: '/api/admin/operator-stats.php',
    tags,
    summary:
      'Replies today, median reply time and conversations waiting per site for the console; and per staff member over from … to (UTC days, today when left out): replies, conversations, median and 90th-percentile reply time, credits earned (members’ spend within 24 h after each reply), reports about their replies. Admins see everyone (or `staff`), an operator their own row',
    query: operatorStatsQuerySchema,
    responses: { 200: operatorStatsSchema, ...errors },
    errors: [...gates],
  }),
  getOperatorStatsExport: defineEndpoint({
    method: 'GET',
    path: '/api/admin/operator-stats-export.php',
    tags,
    summary: 'The per-staff rows of GET /api/admin/operator-stats.php as a CSV file (text/csv; formula-safe)',
    query: operatorStatsQuerySchema,
    responses: { 200: csvFileSchema, ...errors },
    errors: [...gates],
  }),
  getTemplates: defineEndpoint({
    method: 'GET',
    path: '/api/admin/templates.php',
    tags,
    summary:
      'Reply templates of the sites and languages the caller answers (a site’s own and those for every site); `site` and `language` narrow them',
    query: templatesQuerySchema,
    responses: { 200: templatesResponseSchema, ...errors },
    errors: [...gates],
  }),
  postTemplate: defineEndpoint({
    method: 'POST',
    path: '/api/admin/templates.php',
    tags,
    summary:
      'A new template (admin) for a site (absent or null: every site) and member language. The text may hold {member_name}, {profile_name}, {member_city} and {member_age}',
    body: createTemplateSchema,
    responses: { 201: templateResponseSchema, ...errors },
    errors: [...gates],
  }),
  putTemplate: defineEndpoint({
    method: 'PUT',
    path: '/api/admin/templates.php',
    tags,
    summary: 'Changes a template (admin)',
    body: updateTemplateSchema,
    responses: { 200: templateResponseSchema, ...errors },
    errors: [...gates],
  }),
  deleteTemplate: defineEndpoint({
    method: 'DELETE',
    path: '/api/admin/templates.php',
    tags,
    summary: 'Deletes a template (admin)',
    body: templateRefSchema,
    responses: { 200: okSchema, ...errors },
    errors: [...gates],
  }),
  getPersona: defineEndpoint({
    method: 'GET',
    path: '/api/admin/persona.php',
    tags,
    summary: 'A fictional profile’s persona sheet (empty facts until someone writes it); 404 for members',
    query: personaQuerySchema,
    responses: { 200: personaResponseSchema, ...errors },
    errors: [...gates],
  }),
  putPersona: defineEndpoint({
    method: 'PUT',
    path: '/api/admin/persona.php',
    tags,
    summary:
      'Writes a fictional profile’s persona sheet (job, city, family, hobbies, style, other; an empty field is removed). Operators may write the sheets of profiles whose conversations they answer',
    body: updatePersonaSchema,
    responses: { 200: personaResponseSchema, ...errors },
    errors: [...gates],
  }),
};
