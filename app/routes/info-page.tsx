import { useTranslation } from 'react-i18next';
import { useMatches } from 'react-router';
import { pageMeta } from '../lib/meta.ts';
import type { Route } from './+types/info-page';

/** Legal and info pages (spec §1): route name → heading. */
export const infoPageTitles: Record<string, string> = {
  'pages-terms': 'page.terms',
  'pages-privacy': 'page.privacy',
  'pages-cookies': 'page.cookies',
  'pages-ban': 'page.ban',
  'pages-return-policy': 'page.returnPolicy',
  'pages-faq': 'page.faq',
  'pages-service': 'page.service',
  'pages-compliance': 'page.compliance',
};

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, infoPageTitles[matches.at(-1)?.id ?? ''] ?? 'page.terms', { public: true });
}

export default function InfoPage() {
  const { t } = useTranslation();
  const id = useMatches().at(-1)?.id ?? '';
  return (
    <article className="container py-4">
      <h1 className="h3">{t(infoPageTitles[id] ?? 'page.terms')}</h1>
    </article>
  );
}
