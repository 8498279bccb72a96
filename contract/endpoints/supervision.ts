import { defineEndpoint } from '../endpoint.ts';
import {
  boardQuerySchema,
  boardResponseSchema,
  outboundOptionsSchema,
  outboundQuerySchema,
  outboundResponseSchema,
  outboundSchema,
  resolveBoardReportSchema,
  resolvedBoardReportSchema,
} from '../supervision.ts';
import { staffErrors } from './backoffice.ts';

const errors = staffErrors;
const tags = ['admin'] as const;
const gates = ['staff_required', 'password_change_required', 'otp_enrolment_required', 'forbidden'] as const;

/** The supervisor board and starting a conversation as a fictional profile (api-contract.md, the workbench). */
export const supervisionEndpoints = {
  getBoard: defineEndpoint({
    method: 'GET',
    path: '/api/admin/board.php',
    tags,
    summary:
      "The supervisor board (lead, admin): waiting conversations per site and member language with the oldest wait and the breaches of the site's reply target, the staff with their claims and replies in the last hour, and the open reports about fictional profiles with the operator who wrote the reported message",
    query: boardQuerySchema,
    responses: { 200: boardResponseSchema, ...errors },
    errors: [...gates],
  }),
  putBoard: defineEndpoint({
    method: 'PUT',
    path: '/api/admin/board.php',
    tags,
    summary:
      'Closes an open report about a fictional profile (lead, admin): dismiss (unfounded) or resolve (taken up with the operator); never a ban. 409 report_handled',
    body: resolveBoardReportSchema,
    responses: { 200: resolvedBoardReportSchema, ...errors },
    errors: [...gates, 'report_handled'],
  }),
  getOutbound: defineEndpoint({
    method: 'GET',
    path: '/api/admin/outbound.php',
    tags,
    summary:
      'Before starting a conversation: the member and the fictional profiles of their site the caller may write as (operators given `outbound`, leads, admins)',
    query: outboundQuerySchema,
    responses: { 200: outboundOptionsSchema, ...errors },
    errors: [...gates],
  }),
  postOutbound: defineEndpoint({
    method: 'POST',
    path: '/api/admin/outbound.php',
    tags,
    summary:
      'A first message from a fictional profile to a member through the one send path (operators given `outbound`, leads, admins); 403 contact_refused when the member blocked the profile or opted out of messages from profiles they never wrote to; 409 conversation_exists when the member wrote to the profile already (answer it from the queue)',
    body: outboundSchema,
    responses: { 201: outboundResponseSchema, ...errors },
    errors: [...gates, 'contact_refused', 'conversation_exists'],
  }),
};
