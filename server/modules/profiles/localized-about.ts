import type { FastifyInstance } from 'fastify';
import type { Locale } from '#contract/locales.ts';
import { isPlainObject, rewriteAnswer } from '#server/lib/rewrite-answer.ts';

/**
 * Where a profile built for an answer keeps its about text in other languages (the demo's fictional
 * bios are written in every site language). A symbol: it never reaches the JSON, the response schema
 * drops it, and a copy made on the way (`{ ...profile }`) keeps it.
 */
export const aboutByLocale: unique symbol = Symbol('aboutByLocale');

export type AboutTranslations = Partial<Record<string, string>>;

/** The text for this locale from the translations a profile carries, if it carries a string there. */
function translationFor(value: object, locale: Locale): string | undefined {
  const found: unknown = Reflect.get(value, aboutByLocale);
  if (!isPlainObject(found)) return undefined;
  const text = found[locale];
  return typeof text === 'string' ? text : undefined;
}

/**
 * The answer with every profile that carries translations showing its about text in the reader's
 * language. Copied where it changes, never changed in place (a service may keep it in a cache).
 */
export function withLocalizedAbout(value: unknown, locale: Locale): unknown {
  return rewriteAnswer(value, (node) => {
    const text = translationFor(node, locale);
    return 'about' in node && text && text !== node.about ? { about: text } : undefined;
  });
}

/** Before an API answer is serialized: about texts in the request's language, where written. */
export function registerLocalizedAbout(app: FastifyInstance): void {
  app.addHook('preSerialization', async (request, _reply, payload) => {
    if (!request.locale || !request.url.startsWith('/api/')) return payload;
    return withLocalizedAbout(payload, request.locale);
  });
}
