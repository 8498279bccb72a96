import { dataExportSchema } from '../accounts.ts';
import {
  creditCorrectionSchema,
  creditsResponseSchema,
  handleReportSchema,
  memberActionSchema,
  memberDetailSchema,
  memberQuerySchema,
  memberStatusResponseSchema,
  membersQuerySchema,
  membersResponseSchema,
  photoDecisionSchema,
  photoQueueResponseSchema,
  refundResponseSchema,
  refundSchema,
  removePhotoSchema,
  reportResponseSchema,
  reportsQuerySchema,
  reportsResponseSchema,
  setMemberStatusSchema,
} from '../admin-members.ts';
import { okSchema } from '../common.ts';
import { defineEndpoint } from '../endpoint.ts';
import { staffErrorCodes, staffErrors } from './backoffice.ts';

const errors = staffErrors;
const tags = ['admin'] as const;

/** Members and moderation in the back office (moderators; money and data exports: admins). */
export const moderationEndpoints = {
  getMembers: defineEndpoint({
    method: 'GET',
    path: '/api/admin/members.php',
    tags,
    summary: 'Real members by e-mail, name or id, site and status, newest first (moderator)',
    query: membersQuerySchema,
    responses: { 200: membersResponseSchema, ...errors },
    errors: staffErrorCodes,
  }),
  getMember: defineEndpoint({
    method: 'GET',
    path: '/api/admin/member.php',
    tags,
    summary:
      'A member: profile, photos, account, sessions, orders, ledger, reports by and about them (moderator)',
    query: memberQuerySchema,
    responses: { 200: memberDetailSchema, ...errors },
    errors: staffErrorCodes,
  }),
  putMember: defineEndpoint({
    method: 'PUT',
    path: '/api/admin/member.php',
    tags,
    summary: 'Bans or unbans a member; a ban ends every session and refuses sign-in (moderator)',
    body: setMemberStatusSchema,
    responses: { 200: memberStatusResponseSchema, ...errors },
    errors: staffErrorCodes,
  }),
  deleteMemberPhoto: defineEndpoint({
    method: 'DELETE',
    path: '/api/admin/member-photo.php',
    tags,
    summary: "Removes a member's photo; the member is told by mail (moderator)",
    body: removePhotoSchema,
    responses: { 200: okSchema, ...errors },
    errors: staffErrorCodes,
  }),
  postMemberActivation: defineEndpoint({
    method: 'POST',
    path: '/api/admin/member-activation.php',
    tags,
    summary: 'Sends the activation mail again to a member who has not confirmed (moderator)',
    body: memberActionSchema,
    responses: { 200: okSchema, ...errors },
    errors: staffErrorCodes,
  }),
  postMemberDeletion: defineEndpoint({
    method: 'POST',
    path: '/api/admin/member-deletion.php',
    tags,
    summary: 'Starts the deletion of a member on their request (14 days to come back) (moderator)',
    body: memberActionSchema,
    responses: { 200: okSchema, ...errors },
    errors: staffErrorCodes,
  }),
  postCredits: defineEndpoint({
    method: 'POST',
    path: '/api/admin/credits.php',
    tags,
    summary:
      'A credit correction through the ledger, naming the staff member and reason; never below zero (admin)',
    body: creditCorrectionSchema,
    responses: { 200: creditsResponseSchema, ...errors },
    errors: staffErrorCodes,
  }),
  postRefund: defineEndpoint({
    method: 'POST',
    path: '/api/admin/refund.php',
    tags,
    summary:
      'Refunds an order, in full or in part (`amount_cents`, `credits`), through the payment provider, once: a repeat is 409 refund_impossible; the ledger takes the chosen credits back (admin)',
    body: refundSchema,
    responses: { 200: refundResponseSchema, ...errors },
    errors: [...staffErrorCodes, 'refund_impossible', 'provider_unavailable'],
  }),
  getMemberExport: defineEndpoint({
    method: 'GET',
    path: '/api/admin/member-export.php',
    tags,
    summary: "A member's data as a JSON file (GDPR), on the member's request (admin)",
    query: memberQuerySchema,
    responses: { 200: dataExportSchema, ...errors },
    errors: staffErrorCodes,
  }),
  getReports: defineEndpoint({
    method: 'GET',
    path: '/api/admin/reports.php',
    tags,
    summary: 'Member reports (profiles and messages), open first, with the reported message (moderator)',
    query: reportsQuerySchema,
    responses: { 200: reportsResponseSchema, ...errors },
    errors: staffErrorCodes,
  }),
  putReports: defineEndpoint({
    method: 'PUT',
    path: '/api/admin/reports.php',
    tags,
    summary:
      'Handles a report once: dismiss, warn (mail), remove_photo or ban; 409 report_handled (moderator)',
    body: handleReportSchema,
    responses: { 200: reportResponseSchema, ...errors },
    errors: [...staffErrorCodes, 'report_handled'],
  }),
  getPhotoQueue: defineEndpoint({
    method: 'GET',
    path: '/api/admin/photo-queue.php',
    tags,
    summary: "Members' new photos waiting for a moderator, oldest first (moderator)",
    responses: { 200: photoQueueResponseSchema, ...errors },
    errors: staffErrorCodes,
  }),
  putPhotoQueue: defineEndpoint({
    method: 'PUT',
    path: '/api/admin/photo-queue.php',
    tags,
    summary: 'Approves or rejects a new photo; a rejected one is removed and the member told (moderator)',
    body: photoDecisionSchema,
    responses: { 200: okSchema, ...errors },
    errors: staffErrorCodes,
  }),
};
