import { pageMeta } from '#app/lib/meta.ts';
import { useTranslation } from '#app/lib/use-translation.ts';
import { localeNames, locales } from '#contract/locales.ts';
import type { Route } from './+types/lang-config';

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, 'footer.language');
}

/** /lang-config: opens the site in any language (?lang=, which the locale cookie then keeps). */
export default function LangConfig() {
  const { t } = useTranslation();
  return (
    <div className="container py-4" style={{ maxWidth: 560 }}>
      <h1 className="h3">{t('landers:langConfig.title')}</h1>
      <p>{t('landers:langConfig.lead')}</p>
      <ul className="list-group">
        {locales.map((locale) => (
          <li key={locale} className="list-group-item">
            <a href={`/?lang=${locale}`} hrefLang={locale} lang={locale}>
              {localeNames[locale]}
            </a>
          </li>
        ))}
      </ul>
    </div>
  );
}
