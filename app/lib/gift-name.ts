import type { TFunction } from 'i18next';

/**
 * A gift's name in the reader's language: its own name for that language (set in the back office),
 * else the catalog's `chat:gift.<slug>` (the built-in gifts), else its English name.
 */
export function giftName(
  t: TFunction,
  locale: string,
  gift: { slug: string; names?: Record<string, string> | undefined },
): string {
  const names = gift.names ?? {};
  return names[locale] ?? t(`chat:gift.${gift.slug}`, { defaultValue: names.en ?? gift.slug });
}
