import { z } from 'zod';
import { errorBodySchema, okSchema } from '../common.ts';
import { defineEndpoint } from '../endpoint.ts';
import {
  creationOptionsResponseSchema,
  deviceSessionsResponseSchema,
  endDeviceSessionSchema,
  endSessionLinkQuerySchema,
  passkeyLoginBodySchema,
  passkeyResponseSchema,
  passkeysResponseSchema,
  registerPasskeyBodySchema,
  removePasskeySchema,
  requestOptionsResponseSchema,
  stepQuerySchema,
} from '../security.ts';
import { appealBodySchema, appealResponseSchema, standingResponseSchema } from '../standing.ts';
import { userSchema } from '../users.ts';

const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
  409: errorBodySchema,
  422: errorBodySchema,
  429: errorBodySchema,
};
const tags = ['accounts'] as const;

/** Signed-in devices and passkeys of a member (api-contract.md, Visitors, sessions, passkeys). */
export const securityEndpoints = {
  getSessions: defineEndpoint({
    method: 'GET',
    path: '/api/sessions.php',
    tags,
    summary:
      'The member’s signed-in devices, the current one marked; browser and system from the User-Agent, place from an offline GeoIP',
    responses: { 200: deviceSessionsResponseSchema, ...errors },
  }),
  deleteSessions: defineEndpoint({
    method: 'DELETE',
    path: '/api/sessions.php',
    tags,
    summary:
      'Ends one device’s session (`{id}`) or every other one (`{others: true}`), on every instance at once; 404 for a session that is not the member’s',
    body: endDeviceSessionSchema,
    responses: { 200: okSchema, ...errors },
  }),
  getEndSession: defineEndpoint({
    method: 'GET',
    path: '/api/end-session.php',
    tags,
    summary:
      'The “this was not me” link of the new-device mail: ends that session and redirects to /login?session_ended=1 (or =0 when the link is used or unknown)',
    query: endSessionLinkQuerySchema,
  }),
  getPasskeys: defineEndpoint({
    method: 'GET',
    path: '/api/passkeys.php',
    tags,
    summary: 'The member’s passkeys',
    responses: { 200: passkeysResponseSchema, ...errors },
  }),
  postPasskeys: defineEndpoint({
    method: 'POST',
    path: '/api/passkeys.php',
    tags,
    summary:
      'With ?step=options: WebAuthn creation options (a challenge valid once, for 5 minutes). Without: registers the browser’s answer (201); 400 passkey_failed when it does not verify, 409 passkey_exists',
    query: stepQuerySchema,
    body: z.union([registerPasskeyBodySchema, z.object({})]).nullish(),
    responses: { 201: z.union([creationOptionsResponseSchema, passkeyResponseSchema]), ...errors },
    errors: ['passkey_failed', 'passkey_exists'],
  }),
  deletePasskeys: defineEndpoint({
    method: 'DELETE',
    path: '/api/passkeys.php',
    tags,
    summary: 'Removes one of the member’s passkeys',
    body: removePasskeySchema,
    responses: { 200: okSchema, ...errors },
  }),
  postPasskeyLogin: defineEndpoint({
    method: 'POST',
    path: '/api/passkey-login.php',
    tags,
    summary:
      'With ?step=options: WebAuthn request options (any of the site’s passkeys may answer). Without: signs in with the assertion and sets the session cookie, as a password sign-in; 401 passkey_failed',
    query: stepQuerySchema,
    body: z.union([passkeyLoginBodySchema, z.object({})]).nullish(),
    responses: {
      200: z.union([requestOptionsResponseSchema, z.object({ user: userSchema })]),
      ...errors,
    },
    errors: ['passkey_failed', 'banned', 'pending_deletion'],
  }),
  getStanding: defineEndpoint({
    method: 'GET',
    path: '/api/standing.php',
    tags,
    summary:
      'The member’s standing: strikes from moderators’ warnings, what each led to, a posting suspension, appeals',
    responses: { 200: standingResponseSchema, ...errors },
  }),
  postAppeal: defineEndpoint({
    method: 'POST',
    path: '/api/appeal.php',
    tags,
    summary:
      'Appeals one strike, once (201); 409 appeal_exists for a second appeal of the same action, 404 for a strike that is not the member’s',
    body: appealBodySchema,
    responses: { 201: appealResponseSchema, ...errors },
    errors: ['appeal_exists'],
  }),
};
