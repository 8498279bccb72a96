import { errorBodySchema } from '#contract/common.ts';
import { countsResponseSchema } from '#contract/counts.ts';
import type { ZodApp } from '#server/lib/zod-app.ts';
import { requireMember } from '#server/modules/accounts/sessions.ts';
import { countsOf } from './counts.service.ts';

export async function countsRoutes(app: ZodApp): Promise<void> {
  app.get(
    '/api/counts.php',
    {
      schema: {
        tags: ['accounts'],
        summary:
          'The badge counts of the shell (unread messages and conversations, new likes, credits) in one query; the root loader and the 60 s poll use it instead of the chats and likes lists',
        response: { 200: countsResponseSchema, 403: errorBodySchema },
      },
    },
    async (request) => countsOf(app.deps.db, requireMember(request)),
  );
}
