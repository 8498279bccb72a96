import { z } from 'zod';
import { staffLoginSchema, staffResponseSchema } from '../admin.ts';
import { errorBodySchema, okSchema } from '../common.ts';
import { defineEndpoint } from '../endpoint.ts';
import {
  authenticationResponseSchema,
  creationOptionsResponseSchema,
  passkeyResponseSchema,
  passkeysResponseSchema,
  registerPasskeyBodySchema,
  removePasskeySchema,
  requestOptionsResponseSchema,
  stepQuerySchema,
} from '../security.ts';

const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
  409: errorBodySchema,
  422: errorBodySchema,
  429: errorBodySchema,
};
const tags = ['admin'] as const;

/** Staff sign-in with password and passkey: the passkey stands in for the TOTP code. */
export const staffPasskeyLoginSchema = staffLoginSchema.pick({ email: true, password: true }).extend({
  credential: authenticationResponseSchema,
});

/** A staff member's own passkeys, and the passkey as second factor at sign-in. */
export const staffSecurityEndpoints = {
  getPasskeys: defineEndpoint({
    method: 'GET',
    path: '/api/admin/passkeys.php',
    tags,
    summary: 'The own passkeys',
    responses: { 200: passkeysResponseSchema, ...errors },
  }),
  postPasskeys: defineEndpoint({
    method: 'POST',
    path: '/api/admin/passkeys.php',
    tags,
    summary:
      'With ?step=options: WebAuthn creation options. Without: registers the answer (201) as a second factor for sign-in; 400 passkey_failed, 409 passkey_exists',
    query: stepQuerySchema,
    body: z.union([registerPasskeyBodySchema, z.object({})]).nullish(),
    responses: { 201: z.union([creationOptionsResponseSchema, passkeyResponseSchema]), ...errors },
    errors: ['passkey_failed', 'passkey_exists'],
  }),
  deletePasskeys: defineEndpoint({
    method: 'DELETE',
    path: '/api/admin/passkeys.php',
    tags,
    summary: 'Removes one of the own passkeys',
    body: removePasskeySchema,
    responses: { 200: okSchema, ...errors },
  }),
  postPasskeyLogin: defineEndpoint({
    method: 'POST',
    path: '/api/admin/passkey-login.php',
    tags,
    summary:
      'With ?step=options: WebAuthn request options. Without: staff sign-in with e-mail, password and the passkey’s assertion instead of a TOTP code (throttled like /api/admin/session.php); 401 login_failed / passkey_failed',
    query: stepQuerySchema,
    body: z.union([staffPasskeyLoginSchema, z.object({})]).nullish(),
    responses: { 200: z.union([requestOptionsResponseSchema, staffResponseSchema]), ...errors },
    errors: ['login_failed', 'passkey_failed', 'account_locked'],
  }),
};
