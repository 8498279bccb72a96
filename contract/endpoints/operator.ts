import {
  claimNextResponseSchema,
  claimNextSchema,
  conversationRefSchema,
  inboxQuerySchema,
  inboxResponseSchema,
  staffResponseSchema,
  updateStaffSchema,
} from '../admin.ts';
import { errorBodySchema, okSchema } from '../common.ts';
import { defineEndpoint } from '../endpoint.ts';

const errors = {
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
  409: errorBodySchema,
  422: errorBodySchema,
  429: errorBodySchema,
};
const tags = ['admin'] as const;

/** The operator workbench (api-contract.md, Staff calls — the workbench), declared once each. */
export const operatorEndpoints = {
  getInbox: defineEndpoint({
    method: 'GET',
    path: '/api/admin/inbox.php',
    tags,
    summary:
      'The queue the caller may answer (their sites and languages). `order=value` (default): members who paid and have credits left first, then the longest waiting (by the minute), then the larger 30-day spend; `order=oldest`: longest waiting first. A page of unclaimed rows at a time (`next_cursor`), the claimed ones in `claimed`',
    query: inboxQuerySchema,
    responses: { 200: inboxResponseSchema, ...errors },
    errors: ['staff_required', 'forbidden'],
  }),
  postNext: defineEndpoint({
    method: 'POST',
    path: '/api/admin/next.php',
    tags,
    summary:
      'Claims the best waiting conversation the caller may answer (the value order) and answers it. 404 queue_empty; 409 claim_limit when the caller holds max_claims already',
    body: claimNextSchema,
    responses: { 200: claimNextResponseSchema, ...errors },
    errors: ['staff_required', 'queue_empty', 'claim_limit'],
  }),
  deleteClaim: defineEndpoint({
    method: 'DELETE',
    path: '/api/admin/claim.php',
    tags,
    summary: 'Gives the caller’s own claim back to the queue',
    body: conversationRefSchema,
    responses: { 200: okSchema, ...errors },
    errors: ['staff_required'],
  }),
  putStaff: defineEndpoint({
    method: 'PUT',
    path: '/api/admin/staff.php',
    tags,
    summary:
      'Changes a staff member’s role, the sites and member languages they answer (empty: all), how many conversations they may hold at once (null: the default) or whether the account is active (admin)',
    body: updateStaffSchema,
    responses: { 200: staffResponseSchema, ...errors },
    errors: ['staff_required', 'forbidden'],
  }),
};
