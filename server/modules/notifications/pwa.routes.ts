import { z } from 'zod';
import { NotFoundError } from '#server/lib/errors.ts';
import { loadSharp } from '#server/lib/lazy-packages.ts';
import type { ZodApp } from '#server/lib/zod-app.ts';
import { escapeHtml } from '#server/modules/mail/mail-templates.ts';
import { siteText } from '#server/modules/sites/site-texts.ts';

const iconSizes = [192, 512] as const;

function iconSvg(name: string, color: string): string {
  const letter = (name.trim()[0] ?? '♥').toUpperCase().replace(/[<>&"']/g, '');
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512"><rect width="512" height="512" rx="96" fill="${color}"/><text x="256" y="330" font-family="Arial, Helvetica, sans-serif" font-size="260" font-weight="700" fill="#ffffff" text-anchor="middle">${letter}</text></svg>`;
}

/** The installed app (PWA): a manifest and icons per site. */
export async function pwaRoutes(app: ZodApp): Promise<void> {
  app.get('/manifest.webmanifest', { schema: { hide: true } }, async (request, reply) => {
    const site = request.site;
    reply.type('application/manifest+json; charset=utf-8').header('cache-control', 'public, max-age=3600');
    return {
      // The installed app's name and description in the reader's language (the site's texts per locale).
      name: siteText(site, request.locale, 'manifest_name'),
      short_name: siteText(site, request.locale, 'manifest_name'),
      description: siteText(site, request.locale, 'description'),
      lang: request.locale,
      // A stable identity per site: the installed app stays the same app when start_url changes.
      id: '/members',
      start_url: '/members',
      scope: '/',
      display: 'standalone',
      background_color: '#ffffff',
      theme_color: site.themeColor,
      icons: iconSizes.map((size) => ({
        src: `/icons/icon-${size}.png`,
        sizes: `${size}x${size}`,
        type: 'image/png',
        purpose: 'any maskable',
      })),
    };
  });

  app.get(
    '/icons/:file',
    { schema: { hide: true, params: z.object({ file: z.string().regex(/^icon-\d+\.png$/) }) } },
    async (request, reply) => {
      const size = Number(request.params.file.slice(5, -4));
      if (!(iconSizes as readonly number[]).includes(size)) throw new NotFoundError();
      const sharp = await loadSharp();
      const png = await sharp(Buffer.from(iconSvg(request.site.name, request.site.themeColor)))
        .resize(size, size)
        .png()
        .toBuffer();
      return reply.type('image/png').header('cache-control', 'public, max-age=86400').send(png);
    },
  );

  // The service worker (public/sw.js) caches this page at install and shows it when a page cannot load.
  app.get('/offline.html', { schema: { hide: true } }, async (request, reply) => {
    const site = request.site;
    const t = (key: string) => app.deps.translator.t(request.locale, `offline:${key}`, { site: site.name });
    reply
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-cache')
      .header('vary', 'accept-language, cookie');
    return `<!doctype html>
<html lang="${request.locale}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="theme-color" content="${escapeHtml(site.themeColor)}"><title>${escapeHtml(t('title'))} | ${escapeHtml(site.name)}</title>
<style>body{margin:0;min-height:100vh;display:flex;align-items:center;justify-content:center;font-family:system-ui,Arial,sans-serif;background:#f6f6f8;color:#212529}main{max-width:28rem;padding:2rem;text-align:center}h1{color:${escapeHtml(site.themeColor)};font-size:1.6rem}a{display:inline-block;margin-top:1rem;padding:.7rem 1.3rem;border-radius:.4rem;background:${escapeHtml(site.themeColor)};color:#fff;text-decoration:none;font-weight:600}</style>
</head><body><main><h1>${escapeHtml(t('title'))}</h1><p>${escapeHtml(t('body'))}</p><a href="">${escapeHtml(t('retry'))}</a></main></body></html>`;
  });
}
