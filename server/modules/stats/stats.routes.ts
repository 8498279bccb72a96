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

  routeOf(app, calls.getTrafficCosts, {}, async (request) => {
    requireStaff(request, 'view_stats');
    return { costs: await stats.costs(request.query.site) };
  });

  routeOf(app, calls.postTrafficCosts, {}, async (request, reply) => {
    const actor = requireStaff(request, 'view_stats');
    const cost = await stats.addCost(request.body);
    await app.deps.staff.audit(app.deps.db, {
      staffId: actor.id,
      action: 'traffic_cost.create',
      object: `traffic_cost:${cost.id}`,
      ip: request.ip,
      detail: { network: cost.network, amount_cents: cost.amount_cents, currency: cost.currency },
    });
    reply.status(201);
    return { cost };
  });

  routeOf(app, calls.deleteTrafficCosts, {}, async (request) => {
    const actor = requireStaff(request, 'view_stats');
    await stats.removeCost(request.body.id);
    await app.deps.staff.audit(app.deps.db, {
      staffId: actor.id,
      action: 'traffic_cost.delete',
      object: `traffic_cost:${request.body.id}`,
      ip: request.ip,
    });
    return { ok: true as const };
  });
}
