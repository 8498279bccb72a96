import type { FastifyInstance } from 'fastify';
import type { Locale } from '#contract/locales.ts';
import { rewriteAnswer } from '#server/lib/rewrite-answer.ts';
import { regionName } from './regions.data.ts';

/**
 * The answer with every profile-shaped object (`country`, `countryregion`, `region_label`) carrying
 * its region label in the reader's language. Profiles are built in many services that know the site
 * but not the reader; the label is the one part of them that depends on the reader's language. The
 * answer is copied where it changes, never changed in place (a service may keep it in a cache).
 */
export function withRegionLabels(value: unknown, locale: Locale): unknown {
  return rewriteAnswer(value, (node) => {
    if (!('region_label' in node) || typeof node.country !== 'string') return undefined;
    const code = typeof node.countryregion === 'string' ? node.countryregion : null;
    const label = regionName(node.country, code, locale);
    return label !== node.region_label ? { region_label: label } : undefined;
  });
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
