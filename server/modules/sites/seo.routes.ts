import { locales } from '#contract/locales.ts';
import type { SiteRow } from '#server/db/schema/sites.ts';
import type { ZodApp } from '#server/lib/zod-app.ts';
import { escapeHtml } from '#server/modules/mail/mail-templates.ts';
import { siteOrigin } from './site-origin.ts';

/** Pages a search engine may list: the front door and the public, legal and info pages. */
export function publicPaths(site: Pick<SiteRow, 'usFooter'>): string[] {
  return [
    '/',
    '/signup',
    '/login',
    '/pricing',
    '/complaints',
    '/pages/terms',
    '/pages/privacy',
    '/pages/cookies',
    '/pages/ban',
    '/pages/return-policy',
    '/pages/faq',
    '/pages/service',
    ...(site.usFooter ? ['/pages/compliance'] : []),
  ];
}

/** Member-only and machine areas that crawlers have no business in (they answer noindex anyway). */
const disallowed = [
  '/api/',
  '/admin',
  '/media/',
  '/likes',
  '/chats',
  '/profile',
  '/notifications',
  '/credits',
  '/directdebit',
  '/transactions',
  '/payments/',
  '/swipe-game',
  '/unsubscribe',
];

export function robotsTxt(origin: string): string {
  return [
    'User-agent: *',
    ...disallowed.map((path) => `Disallow: ${path}`),
    '',
    `Sitemap: ${origin}/sitemap.xml`,
    '',
  ].join('\n');
}

/**
 * Every public page in every language (`?lang=`, the form of the pages' canonical links), each with
 * its hreflang alternates and the language-negotiated page as x-default (sitemaps.org, Google's
 * "localized versions" sitemap form).
 */
export function sitemapXml(origin: string, paths: string[], lastModified: Date): string {
  const day = lastModified.toISOString().slice(0, 10);
  const urls = paths.flatMap((path) => {
    const base = `${origin}${path}`;
    const alternates = [
      ...locales.map(
        (locale) =>
          `    <xhtml:link rel="alternate" hreflang="${locale}" href="${escapeHtml(`${base}?lang=${locale}`)}"/>`,
      ),
      `    <xhtml:link rel="alternate" hreflang="x-default" href="${escapeHtml(base)}"/>`,
    ].join('\n');
    return locales.map(
      (locale) =>
        `  <url>\n    <loc>${escapeHtml(`${base}?lang=${locale}`)}</loc>\n    <lastmod>${day}</lastmod>\n${alternates}\n  </url>`,
    );
  });
  return `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">
${urls.join('\n')}
</urlset>
`;
}

/** robots.txt and sitemap.xml of the site the request is for, from the site's own origin (never the Host header). */
export async function seoRoutes(app: ZodApp): Promise<void> {
  app.get(
    '/robots.txt',
    {
      schema: {
        tags: ['sites'],
        operationId: 'getRobotsTxt',
        summary: "The site's robots.txt, naming its sitemap",
        security: [],
      },
    },
    async (request, reply) => {
      const origin = siteOrigin(request.site, app.deps.config);
      reply.type('text/plain; charset=utf-8').header('cache-control', 'public, max-age=3600');
      return robotsTxt(origin);
    },
  );

  app.get(
    '/sitemap.xml',
    {
      schema: {
        tags: ['sites'],
        operationId: 'getSitemapXml',
        summary:
          "The site's public and legal pages in every language, with hreflang alternates (application/xml)",
        security: [],
      },
    },
    async (request, reply) => {
      const site = request.site;
      const origin = siteOrigin(site, app.deps.config);
      reply.type('application/xml; charset=utf-8').header('cache-control', 'public, max-age=3600');
      return sitemapXml(origin, publicPaths(site), site.updatedAt);
    },
  );
}
