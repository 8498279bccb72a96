import { statsEndpoints as calls } from '#contract/endpoints/stats.ts';
import { routeOf } from '#server/lib/endpoint-route.ts';
import type { ZodApp } from '#server/lib/zod-app.ts';
import { requireStaff } from '#server/modules/staff/staff.sessions.ts';

/** GET /api/admin/stats.php (api-contract.md, Staff calls) and its CSV download; admins only. */
export async function statsRoutes(app: ZodApp): Promise<void> {
  const stats = app.deps.stats;

  routeOf(
    app,
    calls.getStats,
    { config: { rateLimit: { max: 60, timeWindow: '1 minute' } } },
    async (request) => {
      requireStaff(request, 'view_stats');
      return stats.stats(request.query);
    },
  );

  routeOf(
    app,
    calls.getStatsExport,
    { config: { rateLimit: { max: 30, timeWindow: '1 minute' } } },
    async (request, reply) => {
      requireStaff(request, 'view_stats');
      const { table, ...query } = request.query;
      const body = await stats.csv(query, table);
      const name = `stats-${table}-${query.from}-${query.to}${query.site ? `-site${query.site}` : ''}.csv`;
      reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${name}"`)
        .header('cache-control', 'no-store');
      return body;
    },
  );
}
