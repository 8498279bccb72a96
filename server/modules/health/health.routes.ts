import { sql } from 'drizzle-orm';
import { healthEndpoints } from '#contract/endpoints/health.ts';
import { routeOf } from '#server/lib/endpoint-route.ts';
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

export async function healthRoutes(app: ZodApp): Promise<void> {
  routeOf(app, healthEndpoints.getHealth, {}, async () => {
    await app.deps.db.execute(sql`select 1`);
    return { ok: true, database: app.deps.databaseKind };
  });

  routeOf(app, healthEndpoints.getHealthLive, { config: { siteless: true } }, async () => ({
    ok: true as const,
  }));

  routeOf(app, healthEndpoints.getHealthReady, { config: { siteless: true } }, async () => {
    // Down is the answer (503 below); why is logged (one line, no stack) and counted.
    const down = (where: string) => (error: unknown) => {
      app.deps.caught.reportDown(where, error);
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
  });
}
