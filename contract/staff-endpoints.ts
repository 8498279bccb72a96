import type { AnyEndpoint } from './endpoint.ts';
import { moneyAdminEndpoints, profilesAdminEndpoints, sitesAdminEndpoints } from './endpoints/backoffice.ts';
import { engagementEndpoints } from './endpoints/engagement.ts';
import { moderationEndpoints } from './endpoints/moderation.ts';
import { operatorEndpoints } from './endpoints/operator.ts';
import { staffEndpoints as staffAccountEndpoints } from './endpoints/staff.ts';
import { staffSecurityEndpoints } from './endpoints/staff-security.ts';
import { statsEndpoints } from './endpoints/stats.ts';
import { supervisionEndpoints } from './endpoints/supervision.ts';
import { winbackEndpoints } from './endpoints/winback.ts';
import type { EndpointDefinition } from './endpoints.ts';

/**
 * Every declared staff call (/api/admin/…), keyed "METHOD /path": the back office's typed client
 * (app/lib/staff-api.server.ts) reads its schemas from here. A module of its own, so the members'
 * client (contract/endpoints.ts) never loads the back office's schemas in the browser.
 */
export const staffEndpoints = {
  'GET /api/admin/bundles.php': moneyAdminEndpoints.getBundles,
  'POST /api/admin/bundles.php': moneyAdminEndpoints.postBundles,
  'PUT /api/admin/bundles.php': moneyAdminEndpoints.putBundles,
  'PUT /api/admin/bundle-prices.php': moneyAdminEndpoints.putBundlePrices,
  'DELETE /api/admin/bundle-prices.php': moneyAdminEndpoints.deleteBundlePrices,
  'GET /api/admin/gifts.php': moneyAdminEndpoints.getGifts,
  'POST /api/admin/gifts.php': moneyAdminEndpoints.postGifts,
  'PUT /api/admin/gifts.php': moneyAdminEndpoints.putGifts,
  'POST /api/admin/gift-image.php': moneyAdminEndpoints.postGiftImage,
  'GET /api/admin/discountcodes.php': moneyAdminEndpoints.getDiscountcodes,
  'POST /api/admin/discountcodes.php': moneyAdminEndpoints.postDiscountcodes,
  'PUT /api/admin/discountcodes.php': moneyAdminEndpoints.putDiscountcodes,
  'GET /api/admin/orders.php': moneyAdminEndpoints.getOrders,
  'GET /api/admin/orders-export.php': moneyAdminEndpoints.getOrdersExport,
  'GET /api/admin/order.php': moneyAdminEndpoints.getOrder,
  'GET /api/admin/invoice.php': moneyAdminEndpoints.getInvoice,
  'GET /api/admin/profiles.php': profilesAdminEndpoints.getProfiles,
  'GET /api/admin/profile-sites.php': profilesAdminEndpoints.getProfileSites,
  'POST /api/admin/profiles.php': profilesAdminEndpoints.postProfiles,
  'PUT /api/admin/profiles.php': profilesAdminEndpoints.putProfiles,
  'GET /api/admin/profile.php': profilesAdminEndpoints.getProfile,
  'POST /api/admin/profiles-bulk.php': profilesAdminEndpoints.postProfilesBulk,
  'POST /api/admin/photos.php': profilesAdminEndpoints.postPhotos,
  'DELETE /api/admin/profile-photo.php': profilesAdminEndpoints.deleteProfilePhoto,
  'GET /api/admin/sites.php': sitesAdminEndpoints.getSites,
  'POST /api/admin/sites.php': sitesAdminEndpoints.postSites,
  'PUT /api/admin/sites.php': sitesAdminEndpoints.putSites,
  'POST /api/admin/site-logo.php': sitesAdminEndpoints.postSiteLogo,
  'GET /api/admin/companies.php': sitesAdminEndpoints.getCompanies,
  'POST /api/admin/companies.php': sitesAdminEndpoints.postCompanies,
  'PUT /api/admin/companies.php': sitesAdminEndpoints.putCompanies,
  'GET /api/admin/members.php': moderationEndpoints.getMembers,
  'GET /api/admin/member.php': moderationEndpoints.getMember,
  'PUT /api/admin/member.php': moderationEndpoints.putMember,
  'DELETE /api/admin/member-photo.php': moderationEndpoints.deleteMemberPhoto,
  'POST /api/admin/member-activation.php': moderationEndpoints.postMemberActivation,
  'POST /api/admin/member-deletion.php': moderationEndpoints.postMemberDeletion,
  'POST /api/admin/credits.php': moderationEndpoints.postCredits,
  'POST /api/admin/refund.php': moderationEndpoints.postRefund,
  'GET /api/admin/member-export.php': moderationEndpoints.getMemberExport,
  'GET /api/admin/reports.php': moderationEndpoints.getReports,
  'PUT /api/admin/reports.php': moderationEndpoints.putReports,
  'GET /api/admin/photo-queue.php': moderationEndpoints.getPhotoQueue,
  'PUT /api/admin/photo-queue.php': moderationEndpoints.putPhotoQueue,
  'PUT /api/admin/chat-photo-queue.php': moderationEndpoints.putChatPhotoQueue,
  'GET /api/admin/appeals.php': moderationEndpoints.getAppeals,
  'PUT /api/admin/appeals.php': moderationEndpoints.putAppeals,
  'GET /api/admin/openers.php': engagementEndpoints.getOpeners,
  'POST /api/admin/openers.php': engagementEndpoints.postOpeners,
  'PUT /api/admin/openers.php': engagementEndpoints.putOpeners,
  'DELETE /api/admin/openers.php': engagementEndpoints.deleteOpeners,
  'POST /api/admin/mass-messages.php': engagementEndpoints.postMassMessages,
  'GET /api/admin/mass-messages.php': engagementEndpoints.getMassMessages,
  'GET /api/admin/winback.php': winbackEndpoints.getWinback,
  'PUT /api/admin/winback.php': winbackEndpoints.putWinback,
  'GET /api/admin/stats.php': statsEndpoints.getStats,
  'GET /api/admin/stats-export.php': statsEndpoints.getStatsExport,
  'GET /api/admin/traffic-costs.php': statsEndpoints.getTrafficCosts,
  'POST /api/admin/traffic-costs.php': statsEndpoints.postTrafficCosts,
  'DELETE /api/admin/traffic-costs.php': statsEndpoints.deleteTrafficCosts,
  // The staff accounts and the operator console.
  'POST /api/admin/session.php': staffAccountEndpoints.postSession,
  'GET /api/admin/session.php': staffAccountEndpoints.getSession,
  'DELETE /api/admin/session.php': staffAccountEndpoints.deleteSession,
  'PUT /api/admin/password.php': staffAccountEndpoints.putPassword,
  'GET /api/admin/sessions.php': staffAccountEndpoints.getSessions,
  'DELETE /api/admin/sessions.php': staffAccountEndpoints.deleteSessions,
  'GET /api/admin/staff-sessions.php': staffAccountEndpoints.getStaffSessions,
  'DELETE /api/admin/staff-sessions.php': staffAccountEndpoints.deleteStaffSessions,
  'POST /api/admin/totp.php': staffAccountEndpoints.postTotp,
  'PUT /api/admin/totp.php': staffAccountEndpoints.putTotp,
  'GET /api/admin/staff.php': staffAccountEndpoints.getStaff,
  'POST /api/admin/staff.php': staffAccountEndpoints.postStaff,
  'PUT /api/admin/staff.php': staffAccountEndpoints.putStaff,
  'GET /api/admin/audit.php': staffAccountEndpoints.getAudit,
  'GET /api/admin/passkeys.php': staffSecurityEndpoints.getPasskeys,
  'POST /api/admin/passkeys.php': staffSecurityEndpoints.postPasskeys,
  'DELETE /api/admin/passkeys.php': staffSecurityEndpoints.deletePasskeys,
  'POST /api/admin/passkey-login.php': staffSecurityEndpoints.postPasskeyLogin,
  'GET /api/admin/inbox.php': operatorEndpoints.getInbox,
  'POST /api/admin/next.php': operatorEndpoints.postNext,
  'POST /api/admin/claim.php': operatorEndpoints.postClaim,
  'DELETE /api/admin/claim.php': operatorEndpoints.deleteClaim,
  'POST /api/admin/typing.php': operatorEndpoints.postTyping,
  'GET /api/admin/conversation.php': operatorEndpoints.getConversation,
  'POST /api/admin/reply.php': operatorEndpoints.postReply,
  'POST /api/admin/notes.php': operatorEndpoints.postNote,
  'GET /api/admin/operator-stats.php': operatorEndpoints.getOperatorStats,
  'GET /api/admin/operator-stats-export.php': operatorEndpoints.getOperatorStatsExport,
  'GET /api/admin/templates.php': operatorEndpoints.getTemplates,
  'POST /api/admin/templates.php': operatorEndpoints.postTemplate,
  'PUT /api/admin/templates.php': operatorEndpoints.putTemplate,
  'DELETE /api/admin/templates.php': operatorEndpoints.deleteTemplate,
  'GET /api/admin/persona.php': operatorEndpoints.getPersona,
  'PUT /api/admin/persona.php': operatorEndpoints.putPersona,
  'GET /api/admin/board.php': supervisionEndpoints.getBoard,
  'PUT /api/admin/board.php': supervisionEndpoints.putBoard,
  'GET /api/admin/outbound.php': supervisionEndpoints.getOutbound,
  'POST /api/admin/outbound.php': supervisionEndpoints.postOutbound,
} as const satisfies Record<string, EndpointDefinition>;

export type StaffEndpoints = typeof staffEndpoints;
export type StaffEndpointKey = keyof StaffEndpoints;

/** Every declared staff call, for contract/endpoints.test.ts (each registered from its declaration). */
export const declaredStaffEndpoints: readonly AnyEndpoint[] = [
  moneyAdminEndpoints,
  profilesAdminEndpoints,
  sitesAdminEndpoints,
  moderationEndpoints,
  statsEndpoints,
  operatorEndpoints,
  staffAccountEndpoints,
  staffSecurityEndpoints,
  winbackEndpoints,
  engagementEndpoints,
  supervisionEndpoints,
].flatMap((area): AnyEndpoint[] => Object.values(area));
