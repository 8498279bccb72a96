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
          'Readiness: the database and Redis (when configured) answer (503 not_ready otherwise); setup_required is true while no site exists yet (the instance then serves the setup page and the back office)',
        response: {
          200: z.object({
            ok: z.literal(true),
            database: checkSchema,
            redis: checkSchema,
            setup_required: z.boolean(),
          }),
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
      // Before the first site the instance is ready all the same: it serves the setup page and the
      // back office where the first site is made, so a load balancer must send it traffic.
      const setupRequired = await app.deps.sites.resolve(undefined).then(
        () => false,
        (error: unknown) => {
          if (error instanceof NoSiteConfiguredError) return true;
          throw error;
        },
      );
      return { ok: true as const, database, redis, setup_required: setupRequired };
    },
  );
}
