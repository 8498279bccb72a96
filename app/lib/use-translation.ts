import type { i18n as I18n, TFunction } from 'i18next';
import { useContext } from 'react';
import { getI18n, I18nContext } from 'react-i18next';

const translators = new WeakMap<I18n, TFunction>();

/**
 * `t` and the i18next instance of the page. react-i18next's own hook copies every property of the
 * instance for each component on its first render; on the server every render is a first one, and
 * that copying was ~5 % of a member's page. A page's language never changes within its
 * instance (another language is another instance, from the root loader), so one `t` per instance
 * does; a component still renders again when the provider hands it a new instance.
 */
export function useTranslation(): { t: TFunction; i18n: I18n } {
  const i18n = useContext(I18nContext)?.i18n ?? getI18n();
  let t = translators.get(i18n);
  if (!t) {
    t = rememberingTranslator(i18n.getFixedT(i18n.language));
    translators.set(i18n, t);
  }
  return { t, i18n };
}

/** Kept answers per instance; past this many, the memory starts over (names and counts vary). */
const rememberedLimit = 5_000;

/**
 * i18next copies its whole options object on every call (~9 % of a member's page on the server,
 * where every card asks for the same few words). An instance's catalogs and language never change,
 * so a call with no options, or options of plain values only (a count, a name), always has the same
 * answer: it is kept, under the key and those values. Any other call goes to i18next.
 */
export function rememberingTranslator(t: TFunction): TFunction {
  const remembered = new Map<string, unknown>();
  const translate = (key: unknown, options?: unknown, ...rest: unknown[]): unknown => {
    const id = rest.length === 0 && typeof key === 'string' ? callId(key, options) : undefined;
    if (id === undefined) return Reflect.apply(t, undefined, [key, options, ...rest]);
    if (remembered.has(id)) return remembered.get(id);
    const answer: unknown = t(key as string, options as Record<string, unknown> | undefined);
    if (remembered.size >= rememberedLimit) remembered.clear();
    remembered.set(id, answer);
    return answer;
  };
  // i18next's TFunction is a set of generic overloads no plain function can be written as; this
  // one hands every call on unchanged, or its kept answer.
  return translate as unknown as TFunction;
}

/** The key and its options' plain values as one string, or undefined when an option is not plain. */
function callId(key: string, options: unknown): string | undefined {
  if (options === undefined) return key;
  if (typeof options !== 'object' || options === null) return undefined;
  let id = key;
  for (const [name, value] of Object.entries(options)) {
    const type = typeof value;
    if (type !== 'string' && type !== 'number' && type !== 'boolean' && value !== undefined) return undefined;
    id += `\u0000${name}\u0001${type[0]}${String(value)}`;
  }
  return id;
}
