import { z } from 'zod';
import { NotFoundError } from '#server/lib/errors.ts';
import type { ZodApp } from '#server/lib/zod-app.ts';
import { paymentIconSvgs } from './payment-icons.ts';

export async function assetsRoutes(app: ZodApp): Promise<void> {
  app.get(
    '/api/assets/paymentmethod/:file',
    {
      schema: {
        tags: ['assets'],
        summary: 'Payment-method icon as SVG: mastercard.svg, visa.svg, applepay.svg',
        params: z.object({ file: z.string().regex(/^[a-z]+\.svg$/) }),
      },
    },
    async (request, reply) => {
      const svg = paymentIconSvgs[request.params.file.slice(0, -'.svg'.length)];
      if (!svg) throw new NotFoundError();
      return reply
        .type('image/svg+xml; charset=utf-8')
        .header('cache-control', 'public, max-age=86400')
        .header('x-content-type-options', 'nosniff')
        .send(svg);
    },
  );
}
