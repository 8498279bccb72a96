import { errorBodySchema, okSchema } from '#contract/common.ts';
import { complaintBodySchema } from '#contract/endpoints.ts';
import type { ZodApp } from '#server/lib/zod-app.ts';
import { requestContext } from '#server/modules/accounts/sessions.ts';
import { fileComplaint } from './complaints.service.ts';

export async function complaintsRoutes(app: ZodApp): Promise<void> {
  app.post(
    '/api/complaint.php',
    {
      config: {
        rateLimit: {
          max: 5,
          timeWindow: '1 hour',
          keyGenerator: (request) => `complaint:${request.ip}`,
        },
      },
      schema: {
        tags: ['content'],
        summary:
          'Stores a complaint for the operators and acknowledges it by mail with a reference number only (5 an hour per IP)',
        body: complaintBodySchema,
        response: { 201: okSchema, 422: errorBodySchema, 429: errorBodySchema },
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
