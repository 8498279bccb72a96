import type { FastifyInstance } from 'fastify';
import type { Locale } from '#contract/locales.ts';
import { regionName } from './regions.data.ts';

const maxDepth = 8;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/**
 * The answer with every profile-shaped object (`country`, `countryregion`, `region_label`) carrying
 * its region label in the reader's language. Profiles are built in many services that know the site
 * but not the reader; the label is the one part of them that depends on the reader's language. The
 * answer is copied where it changes, never changed in place (a service may keep it in a cache).
 */
export function withRegionLabels(value: unknown, locale: Locale, depth = 0): unknown {
  if (depth > maxDepth) return value;
  if (Array.isArray(value)) {
    let changed = false;
    const items = value.map((item) => {
      const next = withRegionLabels(item, locale, depth + 1);
      if (next !== item) changed = true;
      return next;
    });
    return changed ? items : value;
  }
  if (!isPlainObject(value)) return value;
  let copy: Record<string, unknown> | undefined;
  if ('region_label' in value && typeof value.country === 'string') {
    const code = typeof value.countryregion === 'string' ? value.countryregion : null;
    const label = regionName(value.country, code, locale);
    if (label !== value.region_label) copy = { ...value, region_label: label };
  }
  for (const [key, item] of Object.entries(value)) {
    if (typeof item !== 'object' || item === null) continue;
    const next = withRegionLabels(item, locale, depth + 1);
    if (next !== item) {
      copy ??= { ...value };
      copy[key] = next;
    }
  }
  return copy ?? value;
}

/** withRegionLabels for a typed answer: only `region_label` strings change, so the shape stays the same. */
export function regionLabelled<T>(answer: T, locale: Locale): T {
  return withRegionLabels(answer, locale) as T;
}

/** Before an API answer is serialized: region labels in the request's language. */
export function registerRegionLabels(app: FastifyInstance): void {
  app.addHook('preSerialization', async (request, _reply, payload) => {
    if (!request.locale || !request.url.startsWith('/api/')) return payload;
    return withRegionLabels(payload, request.locale);
  });
}
