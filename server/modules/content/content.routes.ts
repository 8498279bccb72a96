import { errorBodySchema } from '#contract/common.ts';
import { pageQuerySchema, pageResponseSchema } from '#contract/endpoints.ts';
import type { ZodApp } from '#server/lib/zod-app.ts';
import { pageValues, renderPage } from './content.service.ts';

export async function contentRoutes(app: ZodApp): Promise<void> {
  app.get(
    '/api/page.php',
    {
      schema: {
        tags: ['content'],
        summary:
          'A legal or info page in the visitor language, as HTML with the site and company details filled in',
        querystring: pageQuerySchema,
        response: {
          200: pageResponseSchema,
          404: errorBodySchema,
          422: errorBodySchema,
        },
      },
    },
    async (request, reply) => {
      const company = await app.deps.sites.company(request.site);
      const hideAddress = Boolean(request.member?.trafficsource) || Boolean(request.cookies.tracking);
      reply.header('cache-control', 'private, max-age=300');
      return renderPage(
        request.locale,
        request.query.page,
        pageValues(request.site, company, {
          hideAddress,
          locale: request.locale,
          fictionalDefaults: {
            singular: app.deps.translator.t(request.locale, 'content:fictionalSingular'),
            plural: app.deps.translator.t(request.locale, 'content:fictionalPlural'),
          },
        }),
      );
    },
  );
}
