import { z } from 'zod';
import {
  changePasswordBodySchema,
  completeSignupBodySchema,
  dataExportSchema,
  deleteAccountBodySchema,
  languageBodySchema,
  loginBodySchema,
  mailChangeRequestSchema,
  passwordResetBodySchema,
  passwordResetRequestSchema,
  reactivateBodySchema,
  signupBodySchema,
  tokenBodySchema,
  tokenQuerySchema,
} from '../accounts.ts';
import { errorBodySchema, okSchema } from '../common.ts';
import { defineEndpoint } from '../endpoint.ts';
import { pushSubscriptionSchema } from '../notifications.ts';
import { userResponseSchema, userSchema } from '../users.ts';

export const pushQuerySchema = z.object({ push: z.string().max(5).optional() });

export const userBodySchema = z.object({ user: userSchema });

export const pageHiddenQuerySchema = z.object({ lb: z.string().max(5).optional() });

const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
  409: errorBodySchema,
  410: errorBodySchema,
  422: errorBodySchema,
  429: errorBodySchema,
};

/** The accounts calls: each route is registered from its declaration and the web client typed by it. */
export const accountsEndpoints = {
  getUser: defineEndpoint({
    method: 'GET',
    path: '/api/user.php',
    tags: ['accounts'],
    summary: 'The logged-in member, or null',
    responses: { 200: userResponseSchema },
  }),
  postUser: defineEndpoint({
    method: 'POST',
    path: '/api/user.php',
    tags: ['accounts'],
    summary:
      'Log in: sets the session cookie (401 login_failed; 429 account_locked with minutes). With ?push=1: registers a Web Push subscription',
    query: pushQuerySchema,
    body: z.union([loginBodySchema, pushSubscriptionSchema]),
    responses: { 200: z.union([userBodySchema, okSchema]), ...errors },
    errors: ['login_failed', 'account_locked', 'otp_required'],
  }),
  putUser: defineEndpoint({
    method: 'PUT',
    path: '/api/user.php',
    tags: ['accounts'],
    summary: "Sets the member's language (mails go out in it)",
    body: languageBodySchema,
    responses: { 200: userBodySchema, ...errors },
  }),
  deleteUser: defineEndpoint({
    method: 'DELETE',
    path: '/api/user.php',
    tags: ['accounts'],
    summary: 'Deletes the account after 14 days; a reactivation mail is sent and the session ends',
    body: deleteAccountBodySchema,
    responses: { 200: userBodySchema, ...errors },
    errors: ['login_failed'],
  }),
  postLogout: defineEndpoint({
    method: 'POST',
    path: '/api/logout.php',
    tags: ['accounts'],
    summary: 'Ends the session',
    responses: { 200: okSchema, 403: errorBodySchema },
  }),
  getLogout: defineEndpoint({
    method: 'GET',
    path: '/api/logout.php',
    tags: ['accounts'],
    summary: 'Ends the session (same-origin requests only; prefer POST)',
    responses: { 200: okSchema, 403: errorBodySchema },
  }),
  postSignup: defineEndpoint({
    method: 'POST',
    path: '/api/signup.php',
    tags: ['accounts'],
    summary: 'Creates an account, logs in and sends the activation mail',
    body: signupBodySchema,
    responses: { 201: userBodySchema, ...errors },
    errors: ['email_exists', 'signups_closed'],
  }),
  postCompleteSignup: defineEndpoint({
    method: 'POST',
    path: '/api/complete-signup.php',
    tags: ['accounts'],
    summary: 'The second signup step: gender, whom the member seeks, region',
    body: completeSignupBodySchema,
    responses: { 200: userBodySchema, ...errors },
  }),
  getActivate: defineEndpoint({
    method: 'GET',
    path: '/api/activate.php',
    tags: ['accounts'],
    summary: 'The activation link: redirects to /activate/done or /activate/error',
    query: tokenQuerySchema,
  }),
  postActivationMail: defineEndpoint({
    method: 'POST',
    path: '/api/activation-mail.php',
    tags: ['accounts'],
    summary: 'Sends the activation link again',
    responses: { 200: okSchema, ...errors },
  }),
  postPasswordReset: defineEndpoint({
    method: 'POST',
    path: '/api/password-reset.php',
    tags: ['accounts'],
    summary: 'Mails a password reset link (at most 3 a day). 404 email_not_found; 429 reset_limit',
    body: passwordResetRequestSchema,
    responses: { 200: okSchema, ...errors },
    errors: ['email_not_found', 'reset_limit'],
  }),
  putPasswordReset: defineEndpoint({
    method: 'PUT',
    path: '/api/password-reset.php',
    tags: ['accounts'],
    summary: 'Sets a new password with a reset link; ends other sessions and logs in. 410 link_invalid',
    body: passwordResetBodySchema,
    responses: { 200: userBodySchema, ...errors },
    errors: ['link_invalid'],
  }),
  putPassword: defineEndpoint({
    method: 'PUT',
    path: '/api/password.php',
    tags: ['accounts'],
    summary: 'Changes the password; the old one is checked and other sessions end',
    body: changePasswordBodySchema,
    responses: { 200: okSchema, ...errors },
    errors: ['login_failed'],
  }),
  postMailChange: defineEndpoint({
    method: 'POST',
    path: '/api/mail-change.php',
    tags: ['accounts'],
    summary: 'Mails a confirmation link to a new address (the old one gets a notice)',
    body: mailChangeRequestSchema,
    responses: { 200: okSchema, ...errors },
    errors: ['login_failed', 'email_exists'],
  }),
  putMailChange: defineEndpoint({
    method: 'PUT',
    path: '/api/mail-change.php',
    tags: ['accounts'],
    summary: 'Confirms the new address with the link from the mail. 410 link_invalid',
    body: tokenBodySchema,
    responses: { 200: okSchema, ...errors },
    errors: ['link_invalid', 'email_exists'],
  }),
  getReactivate: defineEndpoint({
    method: 'GET',
    path: '/api/reactivate.php',
    tags: ['accounts'],
    summary: 'The link of the deletion mail (14 days): keeps the account, logs in, redirects',
    query: tokenQuerySchema,
  }),
  postReactivate: defineEndpoint({
    method: 'POST',
    path: '/api/reactivate.php',
    tags: ['accounts'],
    summary: 'Keeps an account pending deletion by logging in with it',
    body: reactivateBodySchema,
    responses: { 200: userBodySchema, ...errors },
    errors: ['login_failed', 'account_locked'],
  }),
  postPageHidden: defineEndpoint({
    method: 'POST',
    path: '/api/page-hidden.php',
    tags: ['accounts'],
    summary: 'Beacon when a page is hidden (empty body); lb=1 logs a page bounce',
    query: pageHiddenQuerySchema,
  }),
  getExport: defineEndpoint({
    method: 'GET',
    path: '/api/export.php',
    tags: ['accounts'],
    summary: 'Download my data: everything stored about the signed-in member as a JSON file (GDPR)',
    responses: { 200: dataExportSchema, 403: errorBodySchema, 429: errorBodySchema },
  }),
};
