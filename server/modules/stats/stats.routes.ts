import { z } from 'zod';
import { statsExportQuerySchema, statsQuerySchema, statsResponseSchema } from '#contract/admin-stats.ts';
import { errorBodySchema } from '#contract/common.ts';
import type { ZodApp } from '#server/lib/zod-app.ts';
import { requireStaff } from '#server/modules/staff/staff.sessions.ts';

const errors = { 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema, 422: errorBodySchema };
const tags = ['admin'];

/** GET /api/admin/stats.php (api-contract.md, Staff calls) and its CSV download; admins only. */
export async function statsRoutes(app: ZodApp): Promise<void> {
  const stats = app.deps.stats;

  app.get(
    '/api/admin/stats.php',
    {
      config: { rateLimit: { max: 60, timeWindow: '1 minute' } },
      schema: {
        tags,
        summary:
          'The numbers per UTC day (signups, activations, first purchases, orders, revenue per currency, messages, replies, median reply time, active members) and the traffic sources (visits → signups → buyers → revenue), per site or all (admin)',
        querystring: statsQuerySchema,
        response: { 200: statsResponseSchema, ...errors },
      },
    },
    async (request) => {
      requireStaff(request, 'view_stats');
      return stats.stats(request.query);
    },
  );

  app.get(
    '/api/admin/stats-export.php',
    {
      config: { rateLimit: { max: 30, timeWindow: '1 minute' } },
      schema: {
        tags,
        summary:
          'One table of GET /api/admin/stats.php as a CSV file (text/csv; formula-safe: a field starting with = + - @ gets a leading apostrophe) (admin)',
        querystring: statsExportQuerySchema,
        response: { 200: z.string().describe('text/csv'), ...errors },
      },
    },
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
