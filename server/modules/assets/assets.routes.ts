import { assetsEndpoints } from '#contract/endpoints/assets.ts';
import { routeOf } from '#server/lib/endpoint-route.ts';
import { NotFoundError } from '#server/lib/errors.ts';
import type { ZodApp } from '#server/lib/zod-app.ts';
import { paymentIconSvgs } from './payment-icons.ts';

export async function assetsRoutes(app: ZodApp): Promise<void> {
  routeOf(app, assetsEndpoints.getAssetsPaymentmethodFile, {}, async (request, reply) => {
    const svg = paymentIconSvgs[request.params.file.slice(0, -'.svg'.length)];
    if (!svg) throw new NotFoundError();
    return reply
      .type('image/svg+xml; charset=utf-8')
      .header('cache-control', 'public, max-age=86400')
      .header('x-content-type-options', 'nosniff')
      .send(svg);
  });
}
