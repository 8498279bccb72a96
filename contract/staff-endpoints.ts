import type { AnyEndpoint } from './endpoint.ts';
import { moneyAdminEndpoints, profilesAdminEndpoints, sitesAdminEndpoints } from './endpoints/backoffice.ts';
import { moderationEndpoints } from './endpoints/moderation.ts';
import { operatorEndpoints } from './endpoints/operator.ts';
import { statsEndpoints } from './endpoints/stats.ts';
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
  'GET /api/admin/stats.php': statsEndpoints.getStats,
  'GET /api/admin/stats-export.php': statsEndpoints.getStatsExport,
  'GET /api/admin/inbox.php': operatorEndpoints.getInbox,
  'POST /api/admin/next.php': operatorEndpoints.postNext,
  'DELETE /api/admin/claim.php': operatorEndpoints.deleteClaim,
  'PUT /api/admin/staff.php': operatorEndpoints.putStaff,
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
].flatMap((area): AnyEndpoint[] => Object.values(area));
