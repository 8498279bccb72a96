import { z } from 'zod';
import { NotFoundError } from '#server/lib/errors.ts';
import { mediaNamePattern, privateKeyPrefix, privateMediaRoute } from '#server/lib/storage.ts';
import type { ZodApp } from '#server/lib/zod-app.ts';

/** How long a browser may keep a redirect to a presigned URL (which lives 50 to 60 minutes more). */
const redirectCacheSeconds = 600;

/**
 * Private media (photo originals) by signed link only: the API hands out `/media/private/<name>?e&s`
 * to those allowed to see the photo; here the signature and expiry are checked, nothing else is
 * needed (no cookie, so `<img>`, the installed app and a CDN-less origin all work). A missing,
 * tampered or expired link answers 404, as for an object that does not exist.
 */
export async function privateMediaRoutes(app: ZodApp): Promise<void> {
  const storage = app.deps.storage;
  app.get(
    `${privateMediaRoute}:file`,
    {
      schema: {
        hide: true,
        params: z.object({ file: z.string() }),
        querystring: z.object({ e: z.string().optional(), s: z.string().optional() }),
      },
    },
    async (request, reply) => {
      const { file } = request.params;
      const { e, s } = request.query;
      const key = `${privateKeyPrefix}${file}`;
      if (!mediaNamePattern.test(file) || !e || !/^\d{1,12}$/.test(e) || !s) throw new NotFoundError();
      const expires = Number(e);
      if (!storage.signer.verify(key, expires, s)) throw new NotFoundError();
      const delivery = await storage.deliverPrivate(key);
      if (!delivery) throw new NotFoundError();
      const secondsLeft = storage.signer.secondsLeft(expires);
      reply.header('x-content-type-options', 'nosniff');
      if ('redirect' in delivery) {
        reply.header('cache-control', `private, max-age=${Math.min(secondsLeft, redirectCacheSeconds)}`);
        return reply.redirect(delivery.redirect, 302);
      }
      reply.header('cache-control', `private, max-age=${secondsLeft}`);
      return reply.type(delivery.contentType).send(delivery.data);
    },
  );
}
