import { contentEndpoints } from '#contract/endpoints/content.ts';
import { routeOf } from '#server/lib/endpoint-route.ts';
import type { ZodApp } from '#server/lib/zod-app.ts';
import { requestContext } from '#server/modules/accounts/sessions.ts';
import { fileComplaint } from './complaints.service.ts';

export async function complaintsRoutes(app: ZodApp): Promise<void> {
  routeOf(
    app,
    contentEndpoints.postComplaint,
    {
      config: {
        rateLimit: {
          max: 5,
          timeWindow: '1 hour',
          keyGenerator: (request) => `complaint:${request.ip}`,
        },
      },
    },
    async (request, reply) => {
      const ctx = requestContext(request);
      await fileComplaint(
        app.deps,
        request.site,
        { locale: request.locale, baseUrl: ctx.baseUrl, memberId: request.member?.id ?? null },
        request.body,
      );
      reply.status(201);
      return { ok: true as const };
    },
  );
}
