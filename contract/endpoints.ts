import { z } from 'zod';
import {
  changePasswordBodySchema,
  completeSignupBodySchema,
  deleteAccountBodySchema,
  emailField,
  languageBodySchema,
  loginBodySchema,
  mailChangeRequestSchema,
  passwordResetBodySchema,
  passwordResetRequestSchema,
  reactivateBodySchema,
  signupBodySchema,
  tokenBodySchema,
} from './accounts.ts';
import {
  chatQuerySchema,
  chatResponseSchema,
  chatsQuerySchema,
  chatsResponseSchema,
  costsSchema,
  deleteConversationSchema,
  giftsResponseSchema,
  openConversationResponseSchema,
  openConversationSchema,
  sendMessageResponseSchema,
  sendMessageSchema,
} from './chats.ts';
import { idField, idParam, okSchema } from './common.ts';
import { countsResponseSchema } from './counts.ts';
import {
  landerMapResponseSchema,
  landerMediaResponseSchema,
  landerProfilesQuerySchema,
  landerProfilesResponseSchema,
} from './landers.ts';
import {
  autoLikeResponseSchema,
  likesResponseSchema,
  matchResponseSchema,
  profileRefSchema,
  swipeBodySchema,
  swipeResultSchema,
  swipeStackSchema,
  swipeUndoResponseSchema,
} from './likes.ts';
import { notificationSettingsSchema, notificationSettingsUpdateSchema } from './notifications.ts';
import {
  bundlesResponseSchema,
  createOrderSchema,
  discountCodeSchema,
  orderSchema,
  quoteQuerySchema,
  quoteSchema,
  repeatQuoteSchema,
  transactionSchema,
} from './payments.ts';
import {
  memberResponseSchema,
  ownProfileSchema,
  photoOrderBodySchema,
  photoSchema,
  profileSchema,
  profileUpdateSchema,
  searchQuerySchema,
  searchResponseSchema,
} from './profiles.ts';
import { companyInfoSchema, settingsQuerySchema, settingsSchema } from './sites.ts';
import { userResponseSchema, userSchema } from './users.ts';

/*
 * Request and response schemas that were written inline in the server's route files. The routes
 * import them from here, so the server and the web client validate and type the same shapes.
 */

export const userBodySchema = z.object({ user: userSchema });
export type MemberResponse = z.infer<typeof memberResponseSchema>;
export const ownProfileResponseSchema = z.object({ profile: ownProfileSchema });
export const profilesResponseSchema = z.object({ profiles: z.array(profileSchema) });
export const memberQuerySchema = z.object({ id: idParam });
export const featuredQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(24).default(12),
  profile: idParam.optional(),
});
export const reportBodySchema = z
  .object({
    profile: idField.optional(),
    message: idField.optional(),
    reason: z.enum(['spam', 'scam', 'offensive', 'underage', 'other'], { error: 'required' }),
    text: z.string().max(2000, { error: 'too_long' }).optional(),
  })
  .refine((body) => (body.profile === undefined) !== (body.message === undefined), {
    message: 'required',
    path: ['profile'],
  });
export const regionSchema = z.object({ code: z.string(), name: z.string() });
export type Region = z.infer<typeof regionSchema>;
export const regionsQuerySchema = z.object({ country: z.string().regex(/^[A-Z]{2}$/) });
export const regionsResponseSchema = z.object({ regions: z.array(regionSchema) });
export const geocodeQuerySchema = z.object({
  lat: z.coerce.number().min(-90).max(90),
  lon: z.coerce.number().min(-180).max(180),
});
export const geocodeResponseSchema = z.object({
  country: z.string().nullable(),
  countryregion: z.string().nullable(),
  region_label: z.string().nullable(),
});
export const photoRefSchema = z.object({ photo: idField });
export const mainPhotoBodySchema = z.object({ photo: idField, main: z.literal(true) });
export const photoUploadResponseSchema = z.object({ photo: photoSchema });
export const contentPages = [
  'terms',
  'privacy',
  'cookies',
  'ban',
  'return-policy',
  'faq',
  'service',
  'compliance',
  'complaints',
] as const;
export type ContentPage = (typeof contentPages)[number];
export const pageQuerySchema = z.object({ page: z.enum(contentPages) });
export const pageResponseSchema = z.object({ title: z.string(), html: z.string() });
export const orderQuerySchema = z.object({ id: idParam });
export const orderResponseSchema = z.object({ order: orderSchema });
export const transactionsQuerySchema = z.object({ id: idParam.optional() });
export const transactionsResponseSchema = z.union([
  z.object({ transactions: z.array(orderSchema) }),
  z.object({ transaction: transactionSchema }),
]);
export type Transaction = z.infer<typeof transactionSchema>;
export const ledgerEntrySchema = z.object({
  delta: z.number().int(),
  balance_after: z.number().int(),
  reason: z.string(),
  created_at: z.string(),
});
export type LedgerEntry = z.infer<typeof ledgerEntrySchema>;
export const creditsLedgerResponseSchema = z.object({
  credits: z.number().int(),
  ledger: z.array(ledgerEntrySchema),
});
export const discountCodeQuerySchema = z.object({
  welcome: z.string().optional(),
  code: z.string().max(40).optional(),
});
export const repeatOrderBodySchema = z
  .object({ amount: z.number().int().nonnegative().optional() })
  .optional();
export const checkoutResponseSchema = z.object({ order: orderSchema, checkout_url: z.string() });
export const mandateSchema = z.object({
  id: z.number().int(),
  status: z.enum(['pending', 'active', 'revoked']),
  iban: z.string().describe('masked'),
  account_holder: z.string(),
  phone: z.string().describe('masked'),
});
export type Mandate = z.infer<typeof mandateSchema>;
export const startMandateBodySchema = z.object({
  account_holder: z
    .string({ error: 'required' })
    .trim()
    .min(2, { error: 'required' })
    .max(100, { error: 'too_long' }),
  iban: z.string({ error: 'required' }).max(50, { error: 'invalid_iban' }),
  phone: z.string({ error: 'required' }).max(30, { error: 'invalid_phone' }),
});
export const confirmMandateBodySchema = z.object({ mandate: idField, code: z.string().max(10) });
export const mandateResponseSchema = z.object({ mandate: mandateSchema });
export const currentMandateResponseSchema = z.object({ mandate: mandateSchema.nullable() });
export const testPaymentQuerySchema = z.object({ payment: z.string().max(100) });
export const testPaymentSchema = z.object({
  id: z.string(),
  amount: z.number().int(),
  currency: z.string(),
  description: z.string(),
  status: z.string(),
});
export type TestPayment = z.infer<typeof testPaymentSchema>;
export const testPaymentResponseSchema = z.object({ payment: testPaymentSchema });
export const testPaymentBodySchema = z.object({
  payment: z.string().max(100),
  status: z.enum(['paid', 'failed', 'canceled']),
});
export const testPaymentResultSchema = z.object({ ok: z.literal(true), redirect: z.string() });
export const unsubscribeQuerySchema = z.object({ token: z.string().max(100) });
/** POST /api/complaint.php: the complaints form (no login needed). */
export const complaintBodySchema = z.object({
  name: z.string({ error: 'required' }).trim().min(1, { error: 'required' }).max(100, { error: 'too_long' }),
  email: emailField,
  subject: z
    .string({ error: 'required' })
    .trim()
    .min(1, { error: 'required' })
    .max(200, { error: 'too_long' }),
  message: z
    .string({ error: 'required' })
    .trim()
    .min(1, { error: 'required' })
    .max(5000, { error: 'too_long' }),
});
export const interestsResponseSchema = z.object({
  interests: z.array(z.object({ id: z.string(), icon: z.string() })),
});
export const mailEventBodySchema = z.object({ email: z.email(), type: z.enum(['bounce', 'complaint']) });
export const mailEventResponseSchema = z.object({ ok: z.literal(true), members: z.number().int() });
export const webhookBodySchema = z.object({ id: z.string().min(1).max(100) });
export const pushQuerySchema = z.object({ push: z.string().max(5).optional() });
export const pageHiddenQuerySchema = z.object({ lb: z.string().max(5).optional() });

/** Error codes any member call can answer with (api-contract.md, Conventions). */
export const commonErrorCodes = [
  'authentication_required',
  'csrf_failed',
  'validation_failed',
  'rate_limited',
  'not_found',
  'banned',
  'internal_error',
  /** The web client's own: the request never reached the server (offline, DNS, aborted). */
  'network_error',
] as const;

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

export type EndpointDefinition = {
  method: Method;
  path: `/api/${string}`;
  query?: z.ZodType;
  body?: z.ZodType;
  /** The 2xx answer's body. */
  response: z.ZodType;
  /** Codes of the error body this call answers with, besides commonErrorCodes. */
  errors: readonly string[];
};

/**
 * Every member-facing call of the web client: method and path, query or body, the answer and the
 * error codes. Keys read "METHOD /path"; app/lib/api.ts is the one typed client over this map and
 * contract/endpoints.test.ts proves each entry exists in the OpenAPI document.
 */
export const endpoints = {
  'GET /api/settings.php': {
    method: 'GET',
    path: '/api/settings.php',
    query: settingsQuerySchema,
    response: settingsSchema,
    errors: [],
  },
  'GET /api/companyinfo.php': {
    method: 'GET',
    path: '/api/companyinfo.php',
    response: companyInfoSchema,
    errors: [],
  },
  'GET /api/user.php': { method: 'GET', path: '/api/user.php', response: userResponseSchema, errors: [] },
  'POST /api/user.php': {
    method: 'POST',
    path: '/api/user.php',
    body: loginBodySchema,
    response: userBodySchema,
    errors: ['login_failed', 'account_locked', 'otp_required'],
  },
  'PUT /api/user.php': {
    method: 'PUT',
    path: '/api/user.php',
    body: languageBodySchema,
    response: userBodySchema,
    errors: [],
  },
  'DELETE /api/user.php': {
    method: 'DELETE',
    path: '/api/user.php',
    body: deleteAccountBodySchema,
    response: userBodySchema,
    errors: ['login_failed'],
  },
  'POST /api/logout.php': { method: 'POST', path: '/api/logout.php', response: okSchema, errors: [] },
  'POST /api/signup.php': {
    method: 'POST',
    path: '/api/signup.php',
    body: signupBodySchema,
    response: userBodySchema,
    errors: ['email_exists', 'signups_closed'],
  },
  'POST /api/complete-signup.php': {
    method: 'POST',
    path: '/api/complete-signup.php',
    body: completeSignupBodySchema,
    response: userBodySchema,
    errors: [],
  },
  'POST /api/activation-mail.php': {
    method: 'POST',
    path: '/api/activation-mail.php',
    response: okSchema,
    errors: [],
  },
  'POST /api/password-reset.php': {
    method: 'POST',
    path: '/api/password-reset.php',
    body: passwordResetRequestSchema,
    response: okSchema,
    errors: ['email_not_found', 'reset_limit'],
  },
  'PUT /api/password-reset.php': {
    method: 'PUT',
    path: '/api/password-reset.php',
    body: passwordResetBodySchema,
    response: userBodySchema,
    errors: ['link_invalid'],
  },
  'PUT /api/password.php': {
    method: 'PUT',
    path: '/api/password.php',
    body: changePasswordBodySchema,
    response: okSchema,
    errors: ['login_failed'],
  },
  'POST /api/mail-change.php': {
    method: 'POST',
    path: '/api/mail-change.php',
    body: mailChangeRequestSchema,
    response: okSchema,
    errors: ['login_failed', 'email_exists'],
  },
  'PUT /api/mail-change.php': {
    method: 'PUT',
    path: '/api/mail-change.php',
    body: tokenBodySchema,
    response: okSchema,
    errors: ['link_invalid', 'email_exists'],
  },
  'POST /api/reactivate.php': {
    method: 'POST',
    path: '/api/reactivate.php',
    body: reactivateBodySchema,
    response: userBodySchema,
    errors: ['login_failed', 'account_locked'],
  },
  'GET /api/counts.php': {
    method: 'GET',
    path: '/api/counts.php',
    response: countsResponseSchema,
    errors: [],
  },
  'GET /api/chats.php': {
    method: 'GET',
    path: '/api/chats.php',
    query: chatsQuerySchema,
    response: chatsResponseSchema,
    errors: ['validation_failed'],
  },
  'GET /api/chat.php': {
    method: 'GET',
    path: '/api/chat.php',
    query: chatQuerySchema,
    response: chatResponseSchema,
    errors: ['blocked'],
  },
  'POST /api/chat.php': {
    method: 'POST',
    path: '/api/chat.php',
    body: sendMessageSchema,
    response: sendMessageResponseSchema,
    errors: ['insufficient_credits', 'premium_required', 'blocked', 'not_confirmed'],
  },
  'DELETE /api/chat.php': {
    method: 'DELETE',
    path: '/api/chat.php',
    body: deleteConversationSchema,
    response: okSchema,
    errors: [],
  },
  'POST /api/conversation.php': {
    method: 'POST',
    path: '/api/conversation.php',
    body: openConversationSchema,
    response: openConversationResponseSchema,
    errors: ['premium_required', 'blocked'],
  },
  'GET /api/gifts.php': { method: 'GET', path: '/api/gifts.php', response: giftsResponseSchema, errors: [] },
  'GET /api/message-costs.php': {
    method: 'GET',
    path: '/api/message-costs.php',
    response: costsSchema,
    errors: [],
  },
  'GET /api/likes.php': { method: 'GET', path: '/api/likes.php', response: likesResponseSchema, errors: [] },
  'POST /api/like.php': {
    method: 'POST',
    path: '/api/like.php',
    body: profileRefSchema,
    response: matchResponseSchema,
    errors: ['blocked', 'daily_limit'],
  },
  'DELETE /api/like.php': {
    method: 'DELETE',
    path: '/api/like.php',
    body: profileRefSchema,
    response: okSchema,
    errors: [],
  },
  'GET /api/swipe.php': { method: 'GET', path: '/api/swipe.php', response: swipeStackSchema, errors: [] },
  'POST /api/swipe.php': {
    method: 'POST',
    path: '/api/swipe.php',
    body: swipeBodySchema,
    response: swipeResultSchema,
    errors: ['daily_limit'],
  },
  'POST /api/swipe-undo.php': {
    method: 'POST',
    path: '/api/swipe-undo.php',
    body: profileRefSchema,
    response: swipeUndoResponseSchema,
    errors: ['undo_unavailable'],
  },
  'GET /api/auto-like.php': {
    method: 'GET',
    path: '/api/auto-like.php',
    response: autoLikeResponseSchema,
    errors: [],
  },
  'GET /api/profile.php': {
    method: 'GET',
    path: '/api/profile.php',
    response: ownProfileResponseSchema,
    errors: [],
  },
  'PUT /api/profile.php': {
    method: 'PUT',
    path: '/api/profile.php',
    body: profileUpdateSchema,
    response: ownProfileResponseSchema,
    errors: [],
  },
  'GET /api/member.php': {
    method: 'GET',
    path: '/api/member.php',
    query: memberQuerySchema,
    response: memberResponseSchema,
    errors: ['blocked'],
  },
  'POST /api/block.php': {
    method: 'POST',
    path: '/api/block.php',
    body: profileRefSchema,
    response: okSchema,
    errors: [],
  },
  'DELETE /api/block.php': {
    method: 'DELETE',
    path: '/api/block.php',
    body: profileRefSchema,
    response: okSchema,
    errors: [],
  },
  'GET /api/blocks.php': {
    method: 'GET',
    path: '/api/blocks.php',
    response: profilesResponseSchema,
    errors: [],
  },
  'POST /api/report.php': {
    method: 'POST',
    path: '/api/report.php',
    body: reportBodySchema,
    response: okSchema,
    errors: [],
  },
  'PUT /api/photos.php': {
    method: 'PUT',
    path: '/api/photos.php',
    body: mainPhotoBodySchema,
    response: okSchema,
    errors: [],
  },
  'PUT /api/photo-order.php': {
    method: 'PUT',
    path: '/api/photo-order.php',
    body: photoOrderBodySchema,
    response: okSchema,
    errors: [],
  },
  'DELETE /api/photos.php': {
    method: 'DELETE',
    path: '/api/photos.php',
    body: photoRefSchema,
    response: okSchema,
    errors: [],
  },
  'GET /api/regions.php': {
    method: 'GET',
    path: '/api/regions.php',
    query: regionsQuerySchema,
    response: regionsResponseSchema,
    errors: [],
  },
  'GET /api/geocode.php': {
    method: 'GET',
    path: '/api/geocode.php',
    query: geocodeQuerySchema,
    response: geocodeResponseSchema,
    errors: [],
  },
  'GET /api/featured.php': {
    method: 'GET',
    path: '/api/featured.php',
    query: featuredQuerySchema,
    response: profilesResponseSchema,
    errors: [],
  },
  'GET /api/search.php': {
    method: 'GET',
    path: '/api/search.php',
    query: searchQuerySchema,
    response: searchResponseSchema,
    errors: [],
  },
  'GET /api/page.php': {
    method: 'GET',
    path: '/api/page.php',
    query: pageQuerySchema,
    response: pageResponseSchema,
    errors: [],
  },
  'GET /api/notifications.php': {
    method: 'GET',
    path: '/api/notifications.php',
    response: notificationSettingsSchema,
    errors: [],
  },
  'PUT /api/notifications.php': {
    method: 'PUT',
    path: '/api/notifications.php',
    body: notificationSettingsUpdateSchema,
    response: notificationSettingsSchema,
    errors: [],
  },
  'GET /api/bundles.php': {
    method: 'GET',
    path: '/api/bundles.php',
    response: bundlesResponseSchema,
    errors: [],
  },
  'GET /api/quote.php': {
    method: 'GET',
    path: '/api/quote.php',
    query: quoteQuerySchema,
    response: quoteSchema,
    errors: ['discount_not_found', 'discount_used'],
  },
  'POST /api/order.php': {
    method: 'POST',
    path: '/api/order.php',
    body: createOrderSchema,
    response: checkoutResponseSchema,
    errors: ['price_changed', 'discount_not_found', 'discount_used', 'provider_unavailable'],
  },
  'GET /api/order.php': {
    method: 'GET',
    path: '/api/order.php',
    query: orderQuerySchema,
    response: orderResponseSchema,
    errors: [],
  },
  'GET /api/repeat-order.php': {
    method: 'GET',
    path: '/api/repeat-order.php',
    response: repeatQuoteSchema,
    errors: [],
  },
  'POST /api/repeat-order.php': {
    method: 'POST',
    path: '/api/repeat-order.php',
    body: repeatOrderBodySchema,
    response: checkoutResponseSchema,
    errors: ['price_changed', 'provider_unavailable', 'direct_debit_limit'],
  },
  'GET /api/transactions.php': {
    method: 'GET',
    path: '/api/transactions.php',
    query: transactionsQuerySchema,
    response: transactionsResponseSchema,
    errors: [],
  },
  'GET /api/credits.php': {
    method: 'GET',
    path: '/api/credits.php',
    response: creditsLedgerResponseSchema,
    errors: [],
  },
  'GET /api/discountcode.php': {
    method: 'GET',
    path: '/api/discountcode.php',
    query: discountCodeQuerySchema,
    response: discountCodeSchema,
    errors: ['discount_not_found', 'discount_used'],
  },
  'GET /api/directdebit.php': {
    method: 'GET',
    path: '/api/directdebit.php',
    response: currentMandateResponseSchema,
    errors: [],
  },
  'POST /api/directdebit.php': {
    method: 'POST',
    path: '/api/directdebit.php',
    body: startMandateBodySchema,
    response: mandateResponseSchema,
    errors: ['direct_debit_blocked', 'sms_unavailable'],
  },
  'PUT /api/directdebit.php': {
    method: 'PUT',
    path: '/api/directdebit.php',
    body: confirmMandateBodySchema,
    response: mandateResponseSchema,
    errors: [],
  },
  'GET /api/test-payment.php': {
    method: 'GET',
    path: '/api/test-payment.php',
    query: testPaymentQuerySchema,
    response: testPaymentResponseSchema,
    errors: [],
  },
  'POST /api/test-payment.php': {
    method: 'POST',
    path: '/api/test-payment.php',
    body: testPaymentBodySchema,
    response: testPaymentResultSchema,
    errors: [],
  },
  'GET /api/landers/profiles.php': {
    method: 'GET',
    path: '/api/landers/profiles.php',
    query: landerProfilesQuerySchema,
    response: landerProfilesResponseSchema,
    errors: [],
  },
  'GET /api/landers/map.php': {
    method: 'GET',
    path: '/api/landers/map.php',
    response: landerMapResponseSchema,
    errors: [],
  },
  'GET /api/landers/media.php': {
    method: 'GET',
    path: '/api/landers/media.php',
    response: landerMediaResponseSchema,
    errors: [],
  },
  'POST /api/unsubscribe.php': {
    method: 'POST',
    path: '/api/unsubscribe.php',
    query: unsubscribeQuerySchema,
    response: okSchema,
    errors: [],
  },
} as const satisfies Record<string, EndpointDefinition>;

export type Endpoints = typeof endpoints;
export type EndpointKey = keyof Endpoints;
