import {
  adminBundleResponseSchema,
  adminBundlesResponseSchema,
  adminDiscountCodeResponseSchema,
  adminDiscountCodesResponseSchema,
  adminGiftResponseSchema,
  adminGiftsResponseSchema,
  adminInvoiceResponseSchema,
  adminOrderDetailResponseSchema,
  adminOrderQuerySchema,
  adminOrdersExportQuerySchema,
  adminOrdersQuerySchema,
  adminOrdersResponseSchema,
  bundlePriceSchema,
  createBundleSchema,
  createDiscountCodeSchema,
  createGiftSchema,
  deleteBundlePriceSchema,
  giftImageQuerySchema,
  updateBundleSchema,
  updateDiscountCodeSchema,
  updateGiftSchema,
} from '../admin-money.ts';
import {
  adminCompaniesResponseSchema,
  adminCompanyResponseSchema,
  adminPhotoResponseSchema,
  adminPhotoUploadQuerySchema,
  adminSiteResponseSchema,
  adminSitesResponseSchema,
  bulkProfilesResponseSchema,
  bulkProfilesSchema,
  createCompanySchema,
  createFictionalProfileSchema,
  createSiteSchema,
  deleteAdminPhotoSchema,
  fictionalProfileQuerySchema,
  fictionalProfileResponseSchema,
  fictionalProfilesQuerySchema,
  fictionalProfilesResponseSchema,
  profileSitesResponseSchema,
  siteLogoQuerySchema,
  updateCompanySchema,
  updateFictionalProfileSchema,
  updateSiteSchema,
} from '../admin-sites.ts';
import { csvFileSchema, errorBodySchema, okSchema } from '../common.ts';
import { defineEndpoint } from '../endpoint.ts';

/** The error statuses any staff call may answer (the operator console, staff accounts, moderation). */
export const staffErrors = {
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
  409: errorBodySchema,
  422: errorBodySchema,
  429: errorBodySchema,
};

/** The error statuses of every back-office call (uploads answer 413 and 415 too). */
export const backofficeErrors = { ...staffErrors, 413: errorBodySchema, 415: errorBodySchema };

/**
 * What any staff call can answer besides the common codes: no staff session, a missing right, an
 * account that has not chosen its own password or enrolled its second factor yet.
 */
export const staffErrorCodes = [
  'staff_required',
  'forbidden',
  'password_change_required',
  'otp_enrolment_required',
] as const;

/** An image upload's own answers: not multipart, too large, not an image the encoder reads. */
const uploadErrorCodes = ['unsupported_media_type', 'payload_too_large', 'unsupported_image'] as const;

const tags = ['admin'] as const;

/**
 * Money and offers in the back office (admins only): bundles and their prices per country, gifts,
 * discount codes and orders. Refunds are POST /api/admin/refund.php (contract/endpoints/moderation.ts).
 */
export const moneyAdminEndpoints = {
  getBundles: defineEndpoint({
    method: 'GET',
    path: '/api/admin/bundles.php',
    tags,
    summary: 'Every credit bundle with its prices per country and paid orders (admin)',
    responses: { 200: adminBundlesResponseSchema, ...backofficeErrors },
    errors: staffErrorCodes,
  }),
  postBundles: defineEndpoint({
    method: 'POST',
    path: '/api/admin/bundles.php',
    tags,
    summary: 'Adds a credit bundle (admin); it sells in the countries it gets a price for',
    body: createBundleSchema,
    responses: { 201: adminBundleResponseSchema, ...backofficeErrors },
    errors: staffErrorCodes,
  }),
  putBundles: defineEndpoint({
    method: 'PUT',
    path: '/api/admin/bundles.php',
    tags,
    summary: 'Changes a bundle: credits, position, badge, active (false takes it off sale) (admin)',
    body: updateBundleSchema,
    responses: { 200: adminBundleResponseSchema, ...backofficeErrors },
    errors: staffErrorCodes,
  }),
  putBundlePrices: defineEndpoint({
    method: 'PUT',
    path: '/api/admin/bundle-prices.php',
    tags,
    summary:
      "Sets a bundle's price in one country (integer cents and currency); members see it at once (admin)",
    body: bundlePriceSchema,
    responses: { 200: adminBundleResponseSchema, ...backofficeErrors },
    errors: staffErrorCodes,
  }),
  deleteBundlePrices: defineEndpoint({
    method: 'DELETE',
    path: '/api/admin/bundle-prices.php',
    tags,
    summary: 'Takes a bundle off sale in one country (admin)',
    body: deleteBundlePriceSchema,
    responses: { 200: adminBundleResponseSchema, ...backofficeErrors },
    errors: staffErrorCodes,
  }),
  getGifts: defineEndpoint({
    method: 'GET',
    path: '/api/admin/gifts.php',
    tags,
    summary: 'Every gift with its names per language, image, cost and how often it was sent (admin)',
    responses: { 200: adminGiftsResponseSchema, ...backofficeErrors },
    errors: staffErrorCodes,
  }),
  postGifts: defineEndpoint({
    method: 'POST',
    path: '/api/admin/gifts.php',
    tags,
    summary: 'Adds a gift (admin): names.en required; off sale until an image is uploaded. 422 slug_taken',
    body: createGiftSchema,
    responses: { 201: adminGiftResponseSchema, ...backofficeErrors },
    errors: staffErrorCodes,
  }),
  putGifts: defineEndpoint({
    method: 'PUT',
    path: '/api/admin/gifts.php',
    tags,
    summary: "Changes a gift: names, credits (null: the site's gift_credits), position, active (admin)",
    body: updateGiftSchema,
    responses: { 200: adminGiftResponseSchema, ...backofficeErrors },
    errors: staffErrorCodes,
  }),
  postGiftImage: defineEndpoint({
    method: 'POST',
    path: '/api/admin/gift-image.php',
    tags,
    summary: 'Uploads a gift’s image (multipart field "file"; admin); re-encoded without metadata, public',
    consumes: ['multipart/form-data'],
    query: giftImageQuerySchema,
    responses: { 200: adminGiftResponseSchema, ...backofficeErrors },
    errors: [...staffErrorCodes, ...uploadErrorCodes],
  }),
  getDiscountcodes: defineEndpoint({
    method: 'GET',
    path: '/api/admin/discountcodes.php',
    tags,
    summary: 'Every discount code (spec §3 fields) with its redemptions and paid orders (admin)',
    responses: { 200: adminDiscountCodesResponseSchema, ...backofficeErrors },
    errors: staffErrorCodes,
  }),
  postDiscountcodes: defineEndpoint({
    method: 'POST',
    path: '/api/admin/discountcodes.php',
    tags,
    summary: 'Adds a discount code (admin); 422 code_taken, member_unknown',
    body: createDiscountCodeSchema,
    responses: { 201: adminDiscountCodeResponseSchema, ...backofficeErrors },
    errors: staffErrorCodes,
  }),
  putDiscountcodes: defineEndpoint({
    method: 'PUT',
    path: '/api/admin/discountcodes.php',
    tags,
    summary: 'Changes a discount code; status inactive disables it (admin)',
    body: updateDiscountCodeSchema,
    responses: { 200: adminDiscountCodeResponseSchema, ...backofficeErrors },
    errors: staffErrorCodes,
  }),
  getOrders: defineEndpoint({
    method: 'GET',
    path: '/api/admin/orders.php',
    tags,
    summary: 'Orders, newest first, filtered by status, method, site, member and dates; 50 a page (admin)',
    query: adminOrdersQuerySchema,
    responses: { 200: adminOrdersResponseSchema, ...backofficeErrors },
    errors: staffErrorCodes,
  }),
  getOrdersExport: defineEndpoint({
    method: 'GET',
    path: '/api/admin/orders-export.php',
    tags,
    summary:
      'The orders of GET /api/admin/orders.php with its filters, every page, as a CSV file (text/csv; formula-safe: a field starting with = + - @ gets a leading apostrophe; at most 100,000 orders, more is a field error on from) (admin)',
    query: adminOrdersExportQuerySchema,
    responses: { 200: csvFileSchema, ...backofficeErrors },
    errors: staffErrorCodes,
  }),
  getOrder: defineEndpoint({
    method: 'GET',
    path: '/api/admin/order.php',
    tags,
    summary:
      "An order with the provider's payment id, the credits booked for it and its webhook history (admin)",
    query: adminOrderQuerySchema,
    responses: { 200: adminOrderDetailResponseSchema, ...backofficeErrors },
    errors: staffErrorCodes,
  }),
  getInvoice: defineEndpoint({
    method: 'GET',
    path: '/api/admin/invoice.php',
    tags,
    summary:
      "A member's order as its invoice reads it, the same document as GET /api/transactions.php?id= gives its member (admin)",
    query: adminOrderQuerySchema,
    responses: { 200: adminInvoiceResponseSchema, ...backofficeErrors },
    errors: staffErrorCodes,
  }),
};

/** Fictional profiles in the back office (moderators and admins; api-contract.md, Staff calls). */
export const profilesAdminEndpoints = {
  getProfiles: defineEndpoint({
    method: 'GET',
    path: '/api/admin/profiles.php',
    tags,
    summary:
      'Fictional profiles with their site and numbers (conversations, messages received, replies, credits earned); filters site, q (name or id), gender, country, status',
    query: fictionalProfilesQuerySchema,
    responses: { 200: fictionalProfilesResponseSchema, ...backofficeErrors },
    errors: staffErrorCodes,
  }),
  getProfileSites: defineEndpoint({
    method: 'GET',
    path: '/api/admin/profile-sites.php',
    tags,
    summary:
      'The sites a fictional profile can be on, with their countries and minimum age (moderator, admin)',
    responses: { 200: profileSitesResponseSchema, ...backofficeErrors },
    errors: staffErrorCodes,
  }),
  postProfiles: defineEndpoint({
    method: 'POST',
    path: '/api/admin/profiles.php',
    tags,
    summary: 'Creates a fictional profile on a site (moderator, admin). 201 {profile} with fictional: true',
    body: createFictionalProfileSchema,
    responses: { 201: fictionalProfileResponseSchema, ...backofficeErrors },
    errors: staffErrorCodes,
  }),
  putProfiles: defineEndpoint({
    method: 'PUT',
    path: '/api/admin/profiles.php',
    tags,
    summary: 'Changes a fictional profile: attributes, about, site, status (disable) (moderator, admin)',
    body: updateFictionalProfileSchema,
    responses: { 200: fictionalProfileResponseSchema, ...backofficeErrors },
    errors: staffErrorCodes,
  }),
  getProfile: defineEndpoint({
    method: 'GET',
    path: '/api/admin/profile.php',
    tags,
    summary: 'One fictional profile with its photos and numbers (moderator, admin)',
    query: fictionalProfileQuerySchema,
    responses: { 200: fictionalProfileResponseSchema, ...backofficeErrors },
    errors: staffErrorCodes,
  }),
  postProfilesBulk: defineEndpoint({
    method: 'POST',
    path: '/api/admin/profiles-bulk.php',
    tags,
    summary: 'Disables, enables or moves to a site many fictional profiles at once (moderator, admin)',
    body: bulkProfilesSchema,
    responses: { 200: bulkProfilesResponseSchema, ...backofficeErrors },
    errors: staffErrorCodes,
  }),
  postPhotos: defineEndpoint({
    method: 'POST',
    path: '/api/admin/photos.php',
    tags,
    summary:
      'Adds a photo to a fictional profile (multipart "file", "premium"): premium photos go last, premium=false makes it the free main photo',
    consumes: ['multipart/form-data'],
    query: adminPhotoUploadQuerySchema,
    responses: { 201: adminPhotoResponseSchema, ...backofficeErrors },
    errors: [...staffErrorCodes, ...uploadErrorCodes, 'photo_limit'],
  }),
  deleteProfilePhoto: defineEndpoint({
    method: 'DELETE',
    path: '/api/admin/profile-photo.php',
    tags,
    summary: 'Removes a photo of a fictional profile (moderator, admin)',
    body: deleteAdminPhotoSchema,
    responses: { 200: okSchema, ...backofficeErrors },
    errors: staffErrorCodes,
  }),
};

/** Sites and companies in the back office (admins only; api-contract.md, Staff calls). */
export const sitesAdminEndpoints = {
  getSites: defineEndpoint({
    method: 'GET',
    path: '/api/admin/sites.php',
    tags,
    summary: 'Every site with all its settings and branding (admin)',
    responses: { 200: adminSitesResponseSchema, ...backofficeErrors },
    errors: staffErrorCodes,
  }),
  postSites: defineEndpoint({
    method: 'POST',
    path: '/api/admin/sites.php',
    tags,
    summary:
      'Creates a site (admin); served by every instance at once. 422 validation_failed with fields (domain taken, unknown company, …)',
    body: createSiteSchema,
    responses: { 201: adminSiteResponseSchema, ...backofficeErrors },
    errors: staffErrorCodes,
  }),
  putSites: defineEndpoint({
    method: 'PUT',
    path: '/api/admin/sites.php',
    tags,
    summary: 'Changes a site’s fields (admin); every instance serves the change at once',
    body: updateSiteSchema,
    responses: { 200: adminSiteResponseSchema, ...backofficeErrors },
    errors: staffErrorCodes,
  }),
  postSiteLogo: defineEndpoint({
    method: 'POST',
    path: '/api/admin/site-logo.php',
    tags,
    summary: 'Uploads a site’s logo (multipart field "file"; admin); re-encoded, public, used in mails',
    consumes: ['multipart/form-data'],
    query: siteLogoQuerySchema,
    responses: { 200: adminSiteResponseSchema, ...backofficeErrors },
    errors: [...staffErrorCodes, ...uploadErrorCodes],
  }),
  getCompanies: defineEndpoint({
    method: 'GET',
    path: '/api/admin/companies.php',
    tags,
    summary: 'The companies behind the sites (spec §3 Company info; admin)',
    responses: { 200: adminCompaniesResponseSchema, ...backofficeErrors },
    errors: staffErrorCodes,
  }),
  postCompanies: defineEndpoint({
    method: 'POST',
    path: '/api/admin/companies.php',
    tags,
    summary: 'Adds a company (admin)',
    body: createCompanySchema,
    responses: { 201: adminCompanyResponseSchema, ...backofficeErrors },
    errors: staffErrorCodes,
  }),
  putCompanies: defineEndpoint({
    method: 'PUT',
    path: '/api/admin/companies.php',
    tags,
    summary: 'Changes a company (admin); footers and legal pages show it at once',
    body: updateCompanySchema,
    responses: { 200: adminCompanyResponseSchema, ...backofficeErrors },
    errors: staffErrorCodes,
  }),
};
