import { z } from 'zod';
import { emailField } from '#contract/accounts.ts';
import { errorBodySchema, okSchema } from '#contract/common.ts';
import type { ZodApp } from '#server/lib/zod-app.ts';
import { requestContext } from '#server/modules/accounts/sessions.ts';
import { renderMail } from '#server/modules/mail/mail-templates.ts';
import { insertComplaint } from './complaints.repository.ts';

export const complaintBodySchema = z.object({
  name: z.string({ error: 'required' }).trim().min(1, { error: 'required' }).max(100, { error: 'too_long' }),
  email: emailField,
  subject: z
    .string({ error: 'required' })
    .trim()
    .min(1, { error: 'required' })
    .max(200, { error: 'too_long' }),
  message: z
    .string({ error: 'required' })
    .trim()
    .min(1, { error: 'required' })
    .max(5000, { error: 'too_long' }),
});

export async function complaintsRoutes(app: ZodApp): Promise<void> {
  app.post(
    '/api/complaint.php',
    {
      config: { rateLimit: { max: 5, timeWindow: '1 hour' } },
      schema: {
        tags: ['content'],
        summary: 'Stores a complaint for the operators and acknowledges it by mail',
        body: complaintBodySchema,
        response: { 201: okSchema, 422: errorBodySchema, 429: errorBodySchema },
      },
    },
    async (request, reply) => {
      const ctx = requestContext(request);
      const now = app.deps.clock.now();
      await app.deps.db.transaction(async (tx) => {
        await insertComplaint(tx, {
          siteId: request.site.id,
          userId: request.member?.id ?? null,
          ...request.body,
          createdAt: now,
        });
        const mail = renderMail(
          app.deps.translator,
          request.locale,
          { name: request.site.name, supportEmail: request.site.supportEmail, baseUrl: ctx.baseUrl },
          { kind: 'complaint', params: { subject: request.body.subject }, recipientName: request.body.name },
        );
        await app.deps.mail.enqueue(tx, { to: request.body.email, kind: 'complaint', ...mail });
      });
      reply.status(201);
      return { ok: true as const };
    },
  );
}
