import { errorBodySchema } from '../common.ts';
import { defineEndpoint } from '../endpoint.ts';
import {
  campaignsQuerySchema,
  campaignsResponseSchema,
  deletedResponseSchema,
  deleteOpenerScriptSchema,
  massMessageAnswerSchema,
  massMessageSchema,
  openerScriptInputSchema,
  openerScriptResponseSchema,
  openerScriptsResponseSchema,
  openersQuerySchema,
  updateOpenerScriptSchema,
} from '../engagement.ts';

const errors = { 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema, 422: errorBodySchema };
const tags = ['admin'] as const;
const staffErrors = ['staff_required', 'forbidden', 'otp_enrolment_required'] as const;

/** Opener scripts and mass messages (api-contract.md, Staff calls — engagement), declared once each. */
export const engagementEndpoints = {
  getOpeners: defineEndpoint({
    method: 'GET',
    path: '/api/admin/openers.php',
    tags,
    summary: 'The opener scripts (of one site) with their results: sent, replied, paid within 7 days (admin)',
    query: openersQuerySchema,
    responses: { 200: openerScriptsResponseSchema, ...errors },
    errors: staffErrors,
  }),
  postOpeners: defineEndpoint({
    method: 'POST',
    path: '/api/admin/openers.php',
    tags,
    summary:
      'A new opener script of a site and language: ordered steps after the member’s activation, each a job; message texts may use {member_name}, {profile_name}, {member_city} (admin)',
    body: openerScriptInputSchema,
    responses: { 201: openerScriptResponseSchema, ...errors },
    errors: staffErrors,
  }),
  putOpeners: defineEndpoint({
    method: 'PUT',
    path: '/api/admin/openers.php',
    tags,
    summary:
      'Changes a script: its steps, profiles and active switch. Members already scheduled keep their jobs; each step reads the script when it runs (admin)',
    body: updateOpenerScriptSchema,
    responses: { 200: openerScriptResponseSchema, ...errors },
    errors: staffErrors,
  }),
  deleteOpeners: defineEndpoint({
    method: 'DELETE',
    path: '/api/admin/openers.php',
    tags,
    summary: 'Removes a script; its steps not run yet are skipped (admin)',
    body: deleteOpenerScriptSchema,
    responses: { 200: deletedResponseSchema, ...errors },
    errors: staffErrors,
  }),
  postMassMessages: defineEndpoint({
    method: 'POST',
    path: '/api/admin/mass-messages.php',
    tags,
    summary:
      'A mass message from one fictional profile to a segment of a site’s active members. `preview: true` answers 200 `{count}`; otherwise 202 `{campaign}`: queued, sent in batches by jobs, once per member, skipping members who blocked the profile or opted out (admin)',
    body: massMessageSchema,
    responses: { 200: massMessageAnswerSchema, ...errors },
    errors: staffErrors,
  }),
  getMassMessages: defineEndpoint({
    method: 'GET',
    path: '/api/admin/mass-messages.php',
    tags,
    summary: 'The campaigns, newest first, with their progress: count, sent, skipped, replied (admin)',
    query: campaignsQuerySchema,
    responses: { 200: campaignsResponseSchema, ...errors },
    errors: staffErrors,
  }),
};
