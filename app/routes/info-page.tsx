import { data, useMatches } from 'react-router';
import { serverApi } from '#app/lib/api.ts';
import { pageMeta } from '#app/lib/meta.ts';
import type { ContentPage } from '#contract/endpoints/content.ts';
import type { Route } from './+types/info-page';

/** Legal and info pages (spec §1): route name → content page. */
export const infoPages: Record<string, { page: ContentPage; title: string }> = {
  'pages-terms': { page: 'terms', title: 'page.terms' },
  'pages-privacy': { page: 'privacy', title: 'page.privacy' },
  'pages-cookies': { page: 'cookies', title: 'page.cookies' },
  'pages-ban': { page: 'ban', title: 'page.ban' },
  'pages-return-policy': { page: 'return-policy', title: 'page.returnPolicy' },
  'pages-faq': { page: 'faq', title: 'page.faq' },
  'pages-service': { page: 'service', title: 'page.service' },
  'pages-compliance': { page: 'compliance', title: 'page.compliance' },
};

export function meta({ matches, params }: Route.MetaArgs) {
  const byToken = Object.values(infoPages).find((entry) => 'token' in params && entry.page === params.token);
  return pageMeta(matches, byToken?.title ?? infoPages[matches.at(-1)?.id ?? '']?.title ?? 'page.terms', {
    public: true,
  });
}

export async function loader({ context, request, params }: Route.LoaderArgs) {
  const pathname = new URL(request.url).pathname;
  // /pages/<page>, or the info page by its token at the top level (/faq, /terms, …).
  const entry = Object.values(infoPages).find(
    (candidate) =>
      pathname === `/pages/${candidate.page}` || ('token' in params && params.token === candidate.page),
  );
  if (!entry) throw data(null, { status: 404 });
  const answer = await serverApi(context.api)('GET /api/page.php', { query: { page: entry.page } });
  if (!answer.ok) throw data(null, { status: 404 });
  return answer.data;
}

/** The page's HTML is rendered on the server from our own Markdown, with the settings' values escaped. */
export default function InfoPage({ loaderData }: Route.ComponentProps) {
  const id = useMatches().at(-1)?.id ?? '';
  return (
    <article className="container py-4 legal-page" style={{ maxWidth: 820 }} data-page={id}>
      <h1 className="h2 mb-4">{loaderData.title}</h1>
      {/* biome-ignore lint/security/noDangerouslySetInnerHtml: trusted Markdown from content/, values escaped on the server. */}
      <div dangerouslySetInnerHTML={{ __html: loaderData.html }} />
    </article>
  );
}
