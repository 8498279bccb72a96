import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { errorBodySchema } from '#contract/common.ts';
import { AppError } from '#server/lib/errors.ts';
import type { ZodApp } from '#server/lib/zod-app.ts';
import { NoSiteConfiguredError } from '#server/modules/sites/sites.service.ts';

/** How long a dependency may take to answer a readiness check. */
export const readinessTimeoutMs = 2000;

const within = <T>(promise: Promise<T>, ms: number): Promise<T> =>
  Promise.race([
    promise,
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error('timeout')), ms).unref()),
  ]);

const checkSchema = z.enum(['up', 'down', 'not_configured']);

export async function healthRoutes(app: ZodApp): Promise<void> {
  app.get(
    '/api/health',
    {
      schema: {
        tags: ['system'],
        summary:
          'Database reachability and a configured site, for load balancers (503 setup_required without a site)',
        response: {
          200: z.object({ ok: z.boolean(), database: z.enum(['pglite', 'postgres']) }),
          503: errorBodySchema,
        },
      },
    },
    async () => {
      await app.deps.db.execute(sql`select 1`);
      return { ok: true, database: app.deps.databaseKind };
    },
  );

  app.get(
    '/api/health/live',
    {
      config: { siteless: true },
      schema: {
        tags: ['system'],
        summary: 'Liveness: the process answers (no dependency is checked)',
        response: { 200: z.object({ ok: z.literal(true) }) },
      },
    },
    async () => ({ ok: true as const }),
  );

  app.get(
    '/api/health/ready',
    {
      config: { siteless: true },
      schema: {
        tags: ['system'],
        summary:
          'Readiness: the database and Redis (when configured) answer and a site exists; 503 not_ready or setup_required otherwise',
        response: {
          200: z.object({ ok: z.literal(true), database: checkSchema, redis: checkSchema }),
          503: errorBodySchema,
        },
      },
    },
    async () => {
      // Down is the answer (503 below); why is logged and counted.
      const down = (where: string) => (error: unknown) => {
        app.deps.caught.reportCaught(where, error);
        return 'down' as const;
      };
      const database = await within(app.deps.db.execute(sql`select 1`), readinessTimeoutMs)
        .then(() => 'up' as const)
        .catch(down('health.database'));
      const redisClient = app.deps.redis;
      const redis = !redisClient
        ? ('not_configured' as const)
        : await within(redisClient.ping(), readinessTimeoutMs)
            .then(() => 'up' as const)
            .catch(down('health.redis'));
      if (database === 'down' || redis === 'down') throw new AppError(503, 'not_ready', { database, redis });
      await app.deps.sites.resolve(undefined).catch((error: unknown) => {
        if (error instanceof NoSiteConfiguredError) throw new AppError(503, 'setup_required');
        throw error;
      });
      return { ok: true as const, database, redis };
    },
  );
}
