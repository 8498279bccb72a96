import sharp from 'sharp';
import { z } from 'zod';
import { NotFoundError } from '#server/lib/errors.ts';
import type { ZodApp } from '#server/lib/zod-app.ts';

const iconSizes = [192, 512] as const;

function iconSvg(name: string): string {
  const letter = (name.trim()[0] ?? '♥').toUpperCase().replace(/[<>&"']/g, '');
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512"><rect width="512" height="512" rx="96" fill="#c2185b"/><text x="256" y="330" font-family="Arial, Helvetica, sans-serif" font-size="260" font-weight="700" fill="#ffffff" text-anchor="middle">${letter}</text></svg>`;
}

/** The installed app (PWA): a manifest and icons per site. */
export async function pwaRoutes(app: ZodApp): Promise<void> {
  app.get('/manifest.webmanifest', { schema: { hide: true } }, async (request, reply) => {
    const site = request.site;
    reply.type('application/manifest+json; charset=utf-8').header('cache-control', 'public, max-age=3600');
    return {
      name: site.name,
      short_name: site.name,
      description: site.description,
      start_url: '/members',
      scope: '/',
      display: 'standalone',
      background_color: '#ffffff',
      theme_color: '#c2185b',
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
      const png = await sharp(Buffer.from(iconSvg(request.site.name)))
        .resize(size, size)
        .png()
        .toBuffer();
      return reply.type('image/png').header('cache-control', 'public, max-age=86400').send(png);
    },
  );
}
