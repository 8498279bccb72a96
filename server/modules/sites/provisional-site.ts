import type { SiteRow } from '#server/db/schema/sites.ts';

/**
 * The site the back office runs under while the database holds none (a production start with
 * SEED_DEMO=0): never stored, id 0, only for the back office's own pages and calls, so that the
 * admin from ADMIN_EMAIL can sign in, enrol and create the first company and site (decision 037).
 * Every other path shows the setup page until then.
 */
export function provisionalSite(domain: string): SiteRow {
  return {
    id: 0,
    domain,
    isDefault: true,
    name: 'Back office',
    indexTitle: 'Back office',
    description: '',
    countries: [],
    domainLanguage: 'en',
    timezone: 'Europe/Amsterdam',
    visibleProfileFields: [],
    visibleProfileNotes: [],
    searchFields: [],
    cdnPrefix: '',
    messageCredits: 1,
    photoCredits: 2,
    giftCredits: 3,
    timeBonusPercentage: null,
    strikeRules: {},
    signupCredits: 0,
    messageLength: 1000,
    freeConversations: 2,
    freeMessages: 3,
    maxClaims: 2,
    replyTargetMinutes: 15,
    minimumMessageCosts: {},
    minAge: 18,
    supportEmail: '',
    supportPhone: '',
    enableSiteEntryPopup: false,
    usFooter: false,
    fictionalWarning: '',
    fictionalSingular: '',
    fictionalPlural: '',
    refundDays: 14,
    signups: 'none',
    loggedOutSearch: false,
    loggedOutSearchTrafficsource: false,
    memberResell: false,
    niche: 1,
    mailFromName: null,
    mailFromAddress: null,
    themeColor: '#c2185b',
    logoUrl: null,
    texts: {},
    staffingHours: [],
    typicalReplyMinutes: 180,
    postbacks: [],
    photoScreening: {},
    companyId: 0,
    updatedAt: new Date(0),
  };
}
