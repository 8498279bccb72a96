import { type Locale, locales } from '#contract/locales.ts';
import type { Translator } from '#server/lib/i18n.ts';

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

/** The visitor's language from Accept-Language alone (there is no site yet to give a default). */
export function setupLocale(acceptLanguage: string | undefined, fallback: Locale): Locale {
  for (const part of (acceptLanguage ?? '').split(',')) {
    const tag = part.split(';')[0]!.trim().toLowerCase();
    const base = tag === 'nb' || tag === 'nn' || tag.startsWith('nb-') ? 'no' : tag.split('-')[0];
    const match = locales.find((locale) => locale === base);
    if (match) return match;
  }
  return fallback;
}

/**
 * The page every non-API path shows while the database holds no site (e.g. SEED_DEMO=0 on an empty
 * database): how the operator creates the first back-office admin and the first site.
 */
export function renderSetupPage(translator: Translator, locale: Locale): string {
  const t = (key: string) => escapeHtml(translator.t(locale, `setup:${key}`));
  return `<!doctype html>
<html lang="${locale}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${t('title')}</title>
<style>body{font-family:system-ui,sans-serif;max-width:42rem;margin:3rem auto;padding:0 1rem;line-height:1.5;color:#222}h1{font-size:1.6rem}h2{font-size:1.1rem;margin-top:1.5rem}code{background:#f3f3f3;padding:0 .2rem}</style>
</head>
<body>
<main>
<h1>${t('title')}</h1>
<p>${t('intro')}</p>
<h2>${t('admin_heading')}</h2>
<p>${t('admin_text')}</p>
<h2>${t('site_heading')}</h2>
<p>${t('site_text')}</p>
<p>${t('after')}</p>
</main>
</body>
</html>
`;
}
