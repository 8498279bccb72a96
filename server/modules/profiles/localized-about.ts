import type { FastifyInstance } from 'fastify';
import type { Locale } from '#contract/locales.ts';

/**
 * Where a profile built for an answer keeps its about text in other languages (the demo's fictional
 * bios are written in every site language). A symbol: it never reaches the JSON, the response schema
 * drops it, and a copy made on the way (`{ ...profile }`) keeps it.
 */
export const aboutByLocale: unique symbol = Symbol('aboutByLocale');

export type AboutTranslations = Partial<Record<string, string>>;

const maxDepth = 8;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

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
export function withLocalizedAbout(value: unknown, locale: Locale, depth = 0): unknown {
  if (depth > maxDepth) return value;
  if (Array.isArray(value)) {
    let changed = false;
    const items = value.map((item) => {
      const next = withLocalizedAbout(item, locale, depth + 1);
      if (next !== item) changed = true;
      return next;
    });
    return changed ? items : value;
  }
  if (!isPlainObject(value)) return value;
  let copy: Record<string, unknown> | undefined;
  const text = translationFor(value, locale);
  if ('about' in value && text && text !== value.about) copy = { ...value, about: text };
  for (const [key, item] of Object.entries(value)) {
    if (typeof item !== 'object' || item === null) continue;
    const next = withLocalizedAbout(item, locale, depth + 1);
    if (next !== item) {
      copy ??= { ...value };
      copy[key] = next;
    }
  }
  return copy ?? value;
}

/** Before an API answer is serialized: about texts in the request's language, where written. */
export function registerLocalizedAbout(app: FastifyInstance): void {
  app.addHook('preSerialization', async (request, _reply, payload) => {
    if (!request.locale || !request.url.startsWith('/api/')) return payload;
    return withLocalizedAbout(payload, request.locale);
  });
}
