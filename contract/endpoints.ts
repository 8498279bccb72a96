import type { z } from 'zod';
import type { AnyEndpoint, Method } from './endpoint.ts';
import { accountsEndpoints } from './endpoints/accounts.ts';
import { assetsEndpoints } from './endpoints/assets.ts';
import { chatsEndpoints } from './endpoints/chats.ts';
import { contentEndpoints } from './endpoints/content.ts';
import { countsEndpoints } from './endpoints/counts.ts';
import { healthEndpoints } from './endpoints/health.ts';
import { landersEndpoints } from './endpoints/landers.ts';
import { likesEndpoints } from './endpoints/likes.ts';
import { liveEndpoints } from './endpoints/live.ts';
import { notificationsEndpoints } from './endpoints/notifications.ts';
import { paymentsEndpoints } from './endpoints/payments.ts';
import { photosEndpoints } from './endpoints/photos.ts';
import { profilesEndpoints } from './endpoints/profiles.ts';
import { regionsEndpoints } from './endpoints/regions.ts';
import { searchEndpoints } from './endpoints/search.ts';
import { securityEndpoints } from './endpoints/security.ts';
import { sitesEndpoints } from './endpoints/sites.ts';

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

export type { Method };

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
 * Every member-facing call of the web client, keyed "METHOD /path": each entry is the declaration
 * the server registers its route from (contract/endpoints/<area>.ts), so app/lib/api.ts, the one
 * typed client over this map, types the call from the same schemas the server validates with.
 */
export const endpoints = {
  'GET /api/settings.php': sitesEndpoints.getSettings,
  'GET /api/companyinfo.php': sitesEndpoints.getCompanyinfo,
  'GET /api/user.php': accountsEndpoints.getUser,
  'POST /api/user.php': accountsEndpoints.postUser,
  'PUT /api/user.php': accountsEndpoints.putUser,
  'DELETE /api/user.php': accountsEndpoints.deleteUser,
  'POST /api/logout.php': accountsEndpoints.postLogout,
  'POST /api/signup.php': accountsEndpoints.postSignup,
  'POST /api/complete-signup.php': accountsEndpoints.postCompleteSignup,
  'POST /api/activation-mail.php': accountsEndpoints.postActivationMail,
  'POST /api/password-reset.php': accountsEndpoints.postPasswordReset,
  'PUT /api/password-reset.php': accountsEndpoints.putPasswordReset,
  'PUT /api/password.php': accountsEndpoints.putPassword,
  'POST /api/mail-change.php': accountsEndpoints.postMailChange,
  'PUT /api/mail-change.php': accountsEndpoints.putMailChange,
  'POST /api/reactivate.php': accountsEndpoints.postReactivate,
  'GET /api/counts.php': countsEndpoints.getCounts,
  'GET /api/chats.php': chatsEndpoints.getChats,
  'GET /api/chat.php': chatsEndpoints.getChat,
  'POST /api/chat.php': chatsEndpoints.postChat,
  'DELETE /api/chat.php': chatsEndpoints.deleteChat,
  'POST /api/conversation.php': chatsEndpoints.postConversation,
  'GET /api/gifts.php': chatsEndpoints.getGifts,
  'GET /api/message-costs.php': chatsEndpoints.getMessageCosts,
  'GET /api/likes.php': likesEndpoints.getLikes,
  'POST /api/like.php': likesEndpoints.postLike,
  'DELETE /api/like.php': likesEndpoints.deleteLike,
  'GET /api/swipe.php': likesEndpoints.getSwipe,
  'POST /api/swipe.php': likesEndpoints.postSwipe,
  'POST /api/swipe-undo.php': likesEndpoints.postSwipeUndo,
  'GET /api/auto-like.php': likesEndpoints.getAutoLike,
  'GET /api/visitors.php': likesEndpoints.getVisitors,
  'GET /api/profile.php': profilesEndpoints.getProfile,
  'PUT /api/profile.php': profilesEndpoints.putProfile,
  'GET /api/member.php': profilesEndpoints.getMember,
  'POST /api/block.php': profilesEndpoints.postBlock,
  'DELETE /api/block.php': profilesEndpoints.deleteBlock,
  'GET /api/blocks.php': profilesEndpoints.getBlocks,
  'POST /api/report.php': profilesEndpoints.postReport,
  'PUT /api/photos.php': photosEndpoints.putPhotos,
  'PUT /api/photo-order.php': photosEndpoints.putPhotoOrder,
  'DELETE /api/photos.php': photosEndpoints.deletePhotos,
  'GET /api/regions.php': regionsEndpoints.getRegions,
  'GET /api/geocode.php': regionsEndpoints.getGeocode,
  'GET /api/featured.php': searchEndpoints.getFeatured,
  'GET /api/search.php': searchEndpoints.getSearch,
  'GET /api/page.php': contentEndpoints.getPage,
  'GET /api/notifications.php': notificationsEndpoints.getNotifications,
  'PUT /api/notifications.php': notificationsEndpoints.putNotifications,
  'GET /api/bundles.php': paymentsEndpoints.getBundles,
  'GET /api/quote.php': paymentsEndpoints.getQuote,
  'POST /api/order.php': paymentsEndpoints.postOrder,
  'GET /api/order.php': paymentsEndpoints.getOrder,
  'GET /api/repeat-order.php': paymentsEndpoints.getRepeatOrder,
  'POST /api/repeat-order.php': paymentsEndpoints.postRepeatOrder,
  'GET /api/transactions.php': paymentsEndpoints.getTransactions,
  'GET /api/credits.php': paymentsEndpoints.getCredits,
  'GET /api/discountcode.php': paymentsEndpoints.getDiscountcode,
  'GET /api/directdebit.php': paymentsEndpoints.getDirectdebit,
  'POST /api/directdebit.php': paymentsEndpoints.postDirectdebit,
  'PUT /api/directdebit.php': paymentsEndpoints.putDirectdebit,
  'GET /api/test-payment.php': paymentsEndpoints.getTestPayment,
  'POST /api/test-payment.php': paymentsEndpoints.postTestPayment,
  'GET /api/landers/profiles.php': landersEndpoints.getLandersProfiles,
  'GET /api/landers/map.php': landersEndpoints.getLandersMap,
  'GET /api/landers/media.php': landersEndpoints.getLandersMedia,
  'POST /api/unsubscribe.php': notificationsEndpoints.postUnsubscribe,
  'POST /api/chat-photo.php': chatsEndpoints.postChatPhoto,
  'POST /api/mail-events.php': notificationsEndpoints.postMailEvents,
  'GET /api/interests.php': regionsEndpoints.getInterests,
  'POST /api/photos.php': photosEndpoints.postPhotos,
  'GET /api/logout.php': accountsEndpoints.getLogout,
  'POST /api/complaint.php': contentEndpoints.postComplaint,
  'GET /api/sessions.php': securityEndpoints.getSessions,
  'DELETE /api/sessions.php': securityEndpoints.deleteSessions,
  'GET /api/passkeys.php': securityEndpoints.getPasskeys,
  'POST /api/passkeys.php': securityEndpoints.postPasskeys,
  'DELETE /api/passkeys.php': securityEndpoints.deletePasskeys,
  'POST /api/passkey-login.php': securityEndpoints.postPasskeyLogin,
  'GET /api/standing.php': securityEndpoints.getStanding,
  'POST /api/appeal.php': securityEndpoints.postAppeal,
} as const satisfies Record<string, EndpointDefinition>;

export type Endpoints = typeof endpoints;

/**
 * Every declared member and visitor call: the client's and the ones it never makes (mailed links
 * that redirect, the page-hidden beacon, the payment icons, the probes, the live socket). contract/endpoints.test.ts proves each route under /api/
 * is registered from one of these.
 */
export const declaredEndpoints: readonly AnyEndpoint[] = [
  accountsEndpoints,
  assetsEndpoints,
  chatsEndpoints,
  contentEndpoints,
  countsEndpoints,
  healthEndpoints,
  landersEndpoints,
  likesEndpoints,
  liveEndpoints,
  notificationsEndpoints,
  paymentsEndpoints,
  photosEndpoints,
  profilesEndpoints,
  regionsEndpoints,
  searchEndpoints,
  securityEndpoints,
  sitesEndpoints,
].flatMap((area): AnyEndpoint[] => Object.values(area));
export type EndpointKey = keyof Endpoints;
