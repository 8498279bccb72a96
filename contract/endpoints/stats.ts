import { statsExportQuerySchema, statsQuerySchema, statsResponseSchema } from '../admin-stats.ts';
import { csvFileSchema, errorBodySchema } from '../common.ts';
import { defineEndpoint } from '../endpoint.ts';
import { staffErrorCodes } from './backoffice.ts';

const errors = { 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema, 422: errorBodySchema };
const tags = ['admin'] as const;

/** The site numbers (api-contract.md, Staff calls) and their CSV download; admins only. */
export const statsEndpoints = {
  getStats: defineEndpoint({
    method: 'GET',
    path: '/api/admin/stats.php',
    tags,
    summary:
      'The numbers per UTC day (signups, activations, first purchases, orders, revenue per currency, messages, replies, median reply time, active members) and the traffic sources (visits → signups → buyers → revenue), per site or all (admin)',
    query: statsQuerySchema,
    responses: { 200: statsResponseSchema, ...errors },
    errors: staffErrorCodes,
  }),
  getStatsExport: defineEndpoint({
    method: 'GET',
    path: '/api/admin/stats-export.php',
    tags,
    summary:
      'One table of GET /api/admin/stats.php as a CSV file (text/csv; formula-safe: a field starting with = + - @ gets a leading apostrophe) (admin)',
    query: statsExportQuerySchema,
    responses: { 200: csvFileSchema, ...errors },
    errors: staffErrorCodes,
  }),
};
