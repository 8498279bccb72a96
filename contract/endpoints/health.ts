import { z } from 'zod';
import { errorBodySchema } from '../common.ts';
import { defineEndpoint } from '../endpoint.ts';

const checkSchema = z.enum(['up', 'down', 'not_configured']);

/** The probes of load balancers and orchestrators, registered from these declarations. */
export const healthEndpoints = {
  getHealth: defineEndpoint({
    method: 'GET',
    path: '/api/health',
    tags: ['system'],
    summary:
      'Database reachability and a configured site, for load balancers (503 setup_required without a site)',
    responses: {
      200: z.object({ ok: z.boolean(), database: z.enum(['pglite', 'postgres']) }),
      503: errorBodySchema,
    },
  }),
  getHealthLive: defineEndpoint({
    method: 'GET',
    path: '/api/health/live',
    tags: ['system'],
    summary: 'Liveness: the process answers (no dependency is checked)',
    responses: { 200: z.object({ ok: z.literal(true) }) },
  }),
  getHealthReady: defineEndpoint({
    method: 'GET',
    path: '/api/health/ready',
    tags: ['system'],
    summary:
      'Readiness: the database and Redis (when configured) answer (503 not_ready otherwise); setup_required is true while no site exists yet (the instance then serves the setup page and the back office)',
    responses: {
      200: z.object({
        ok: z.literal(true),
        database: checkSchema,
        redis: checkSchema,
        setup_required: z.boolean(),
      }),
      503: errorBodySchema,
    },
  }),
};
