/** The rules of the frame around every screen (spec §2, §9), kept pure so they are easy to test. */

export const badgeCap = 99;
export const creditsBadgeThreshold = 10;

/** Unread badges show 99+ above 99, and nothing at zero. */
export function badgeLabel(count: number): string | null {
  if (!Number.isFinite(count) || count <= 0) return null;
  return count > badgeCap ? `${badgeCap}+` : String(Math.floor(count));
}

export type CreditsBadge = { label: string; variant: 'warning' | 'danger' } | null;

/** The credits badge appears at 10 credits or fewer: warning above 0, danger at 0. */
export function creditsBadge(credits: number): CreditsBadge {
  if (credits > creditsBadgeThreshold) return null;
  return { label: String(Math.max(0, credits)), variant: credits > 0 ? 'warning' : 'danger' };
}

/** "(3) Amora" — unread messages plus new likes in brackets before the title. */
export function titleWithCount(title: string, count: number): string {
  const bare = stripCount(title);
  return count > 0 ? `(${count > badgeCap ? `${badgeCap}+` : count}) ${bare}` : bare;
}

export function stripCount(title: string): string {
  return title.replace(/^\(\d+\+?\)\s/, '');
}

export type LayoutName = 'default' | 'chat' | 'lander' | 'empty';

/** Outside the default layout the site-entry warning applies only to visitors from these countries. */
export const siteEntryWarningCountries = ['NL', 'DE'];
export const siteEntrySkipCookie = 'skip_site_entry';
export const siteEntrySkipDays = 30;

export function siteEntryWarningVisible(input: {
  enabled: boolean;
  skipped: boolean;
  routeExcluded: boolean;
  layout: LayoutName;
  country: string | null;
}): boolean {
  if (!input.enabled || input.skipped || input.routeExcluded) return false;
  if (input.layout === 'default') return true;
  return input.country !== null && siteEntryWarningCountries.includes(input.country);
}

/** Route names where an installed app shows a back button (spec §2). */
export const backButtonRoutes = [
  'members-id',
  'likes-m-id',
  'likes',
  'likes-type',
  'credits',
  'credits-id-paymentmethod',
];

export function backButtonVisible(standalone: boolean, routeId: string | undefined): boolean {
  return standalone && routeId !== undefined && backButtonRoutes.includes(routeId);
}

/** Route names where the site-entry warning is never shown (spec §2). */
export const siteEntryExcludedRoutes = ['complete-signup', 'reset-password', 'reset-password-do'];

/** Route names of the members area (spec §2). */
export const membersAreaRoutes = ['members', 'members-id', 'chats', 'likes', 'likes-m-id', 'premium'];

/** Polling (spec §7, §9): 60 s, or 300 s with push; the first poll 5 s after load. */
export function pollIntervalMs(pushSubscribed: boolean): number {
  return (pushSubscribed ? 300 : 60) * 1000;
}
export const pollStartDelayMs = 5000;

/** A missing chunk reloads the page at most once per 60 s. */
export const chunkReloadGuardMs = 60_000;

export function shouldReloadForChunk(lastReloadAt: number | null, now: number): boolean {
  return lastReloadAt === null || now - lastReloadAt >= chunkReloadGuardMs;
}

export function isChunkLoadError(error: unknown): boolean {
  const message = error instanceof Error ? error.message : String(error ?? '');
  return /Failed to fetch dynamically imported module|Importing a module script failed|error loading dynamically imported module|Unable to preload CSS/i.test(
    message,
  );
}

/** The support phone is cleaned of dashes and spaces for tel: links (spec §9). */
export function cleanPhone(phone: string): string {
  return phone.replace(/[\s-]/g, '');
}
