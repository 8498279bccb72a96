import { contentEndpoints } from '#contract/endpoints/content.ts';
import { routeOf } from '#server/lib/endpoint-route.ts';
import type { ZodApp } from '#server/lib/zod-app.ts';
import { pageValues, renderPage } from './content.service.ts';

export async function contentRoutes(app: ZodApp): Promise<void> {
  routeOf(app, contentEndpoints.getPage, {}, async (request, reply) => {
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
  });
}
