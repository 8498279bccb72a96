import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { ZodApp } from '#server/lib/zod-app.ts';

export async function healthRoutes(app: ZodApp): Promise<void> {
  app.get(
    '/api/health',
    {
      schema: {
        tags: ['system'],
        summary: 'Liveness and database reachability, for load balancers',
        response: { 200: z.object({ ok: z.boolean(), database: z.enum(['pglite', 'postgres']) }) },
      },
    },
    async () => {
      await app.deps.db.execute(sql`select 1`);
      return { ok: true, database: app.deps.databaseKind };
    },
  );
}
