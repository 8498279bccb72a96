import { randomBytes } from 'node:crypto';
import { isbot } from 'isbot';
import type { Database, Executor } from '#server/db/client.ts';
import type { TrafficSource } from '#server/db/schema/members.ts';
import type { Clock } from '#server/lib/clock.ts';
import * as repo from './tracking.repository.ts';

export const trackingParams = ['network', 'ref', 'sub1', 'sub2', 'sub3'] as const;
/** The query parameters a network may pass its own click id in (kept when it looks like an id). */
export const clickIdParams = ['click_id', 'clickid'] as const;
const clickIdPattern = /^[\w.~-]{1,100}$/;

/** The lander (and slug) a path is, or null: /landers/{name}/{slug?}, /members/{id}/landing…, …/signup. */
export function landerOf(path: string): { lander: string; slug: string | null } | null {
  const lander = /^\/landers\/([a-z0-9-]{1,40})(?:\/([^/]{1,100}))?\/?$/.exec(path);
  if (lander?.[1]) return { lander: lander[1], slug: lander[2] ? decodeSafely(lander[2]) : null };
  const member = /^\/members\/(\d{1,10})\/(landing|landing2|landing3|signup)(?:\/([^/]{1,100}))?\/?$/.exec(
    path,
  );
  if (!member?.[1] || !member[2]) return null;
  if (member[3] && (member[2] === 'landing' || member[2] === 'signup')) return null;
  // A member's landing page: the lander is the page's kind, the slug the profile (and the page's slug).
  return {
    lander: `member-${member[2]}`,
    slug: member[3] ? `${member[1]}/${decodeSafely(member[3])}` : member[1],
  };
}

function decodeSafely(value: string): string {
  try {
    return decodeURIComponent(value).slice(0, 100);
  } catch {
    // expected: a malformed escape in a visitor's URL is kept as it came.
    return value.slice(0, 100);
  }
}

/** The tracking parameters of a landing URL (strings, trimmed, at most 200 characters). */
export function trackingOf(query: Record<string, unknown>): TrafficSource {
  const found: TrafficSource = {};
  for (const key of trackingParams) {
    const value = query[key];
    if (typeof value === 'string' && value.trim()) found[key] = value.trim().slice(0, 200);
  }
  return found;
}

/** The `tracking` cookie as it was written; anything else is no cookie. */
export function parseTrackingCookie(value: string | undefined): TrafficSource | null {
  if (!value) return null;
  try {
    const parsed: unknown = JSON.parse(value);
    if (typeof parsed !== 'object' || parsed === null) return null;
    const source = parsed as Record<string, unknown>;
    const found: TrafficSource = {};
    for (const key of [...trackingParams, 'click_id', 'lander', 'slug'] as const) {
      const item = source[key];
      if (typeof item === 'string' && item) found[key] = item.slice(0, 200);
    }
    return Object.keys(found).length > 0 ? found : null;
  } catch {
    // expected: a cookie that is not JSON was not written by this app: no cookie.
    return null;
  }
}

function sameClick(a: TrafficSource, b: TrafficSource): boolean {
  return (['network', 'ref', 'sub1', 'sub2', 'sub3', 'lander', 'slug'] as const).every(
    (key) => (a[key] ?? null) === (b[key] ?? null),
  );
}

export type Entry = {
  siteId: number;
  /** The path without its query. */
  path: string;
  query: Record<string, unknown>;
  cookie: string | undefined;
  userAgent: string | undefined;
};

/**
 * Landing clicks: an entry whose URL carries network, ref or sub1–sub3 is one visit,
 * with the lander when it was one; a reload (same parameters, same visitor cookie) is not.
 */
export class TrackingService {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
  ) {}

  /**
   * The new `tracking` cookie for a landing click, or null when the request is none (or a reload).
   * A crawler's request keeps the parameters as before but is no visit (and gets no click id).
   */
  async capture(entry: Entry): Promise<TrafficSource | null> {
    const params = trackingOf(entry.query);
    if (Object.keys(params).length === 0) return null;
    const page = landerOf(entry.path);
    const click: TrafficSource = { ...params, ...(page ? { lander: page.lander } : {}) };
    if (page?.slug) click.slug = page.slug;
    if (!entry.userAgent || isbot(entry.userAgent)) return click;
    const networkClickId = clickIdParams
      .map((name) => entry.query[name])
      .find((value): value is string => typeof value === 'string' && clickIdPattern.test(value));

    const previous = parseTrackingCookie(entry.cookie);
    if (
      previous?.click_id &&
      sameClick(previous, click) &&
      (!networkClickId || networkClickId === previous.click_id)
    ) {
      return null;
    }
    const clickId = networkClickId ?? randomBytes(12).toString('base64url');
    await repo.insertVisit(this.db, {
      siteId: entry.siteId,
      clickId,
      network: click.network ?? null,
      ref: click.ref ?? null,
      sub1: click.sub1 ?? null,
      sub2: click.sub2 ?? null,
      sub3: click.sub3 ?? null,
      lander: click.lander ?? null,
      slug: click.slug ?? null,
      path: entry.path.slice(0, 300),
      firstSeenAt: this.clock.now(),
    });
    return { ...click, click_id: clickId };
  }
}

/**
 * The traffic source a new member keeps: a click id counts only when the site recorded that visit
 * (a forged cookie cannot claim another visitor's click); its lander and slug come from the visit.
 */
export async function verifiedTrafficSource(
  db: Executor,
  siteId: number,
  tracking: TrafficSource | null,
): Promise<TrafficSource | null> {
  if (!tracking) return null;
  const { click_id: clickId, lander: _lander, slug: _slug, ...paid } = tracking;
  if (Object.keys(paid).length === 0) return null;
  const visit = clickId ? await repo.findVisit(db, siteId, clickId) : undefined;
  if (!visit) return paid;
  return {
    ...paid,
    click_id: visit.clickId,
    ...(visit.lander ? { lander: visit.lander } : {}),
    ...(visit.slug ? { slug: visit.slug } : {}),
  };
}
