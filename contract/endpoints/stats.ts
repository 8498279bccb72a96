import {
  createTrafficCostSchema,
  statsExportQuerySchema,
  statsQuerySchema,
  statsResponseSchema,
  trafficCostRefSchema,
  trafficCostResponseSchema,
  trafficCostsQuerySchema,
  trafficCostsResponseSchema,
} from '../admin-stats.ts';
import { csvFileSchema, errorBodySchema, okSchema } from '../common.ts';
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
  getTrafficCosts: defineEndpoint({
    method: 'GET',
    path: '/api/admin/traffic-costs.php',
    tags,
    summary:
      'What was spent on each traffic network and period, as entered by admins (newest period first) (admin)',
    query: trafficCostsQuerySchema,
    responses: { 200: trafficCostsResponseSchema, ...errors },
    errors: staffErrorCodes,
  }),
  postTrafficCosts: defineEndpoint({
    method: 'POST',
    path: '/api/admin/traffic-costs.php',
    tags,
    summary:
      'Enters what was spent on a network over a period (for one site or all); the numbers spread it evenly over its days and show the return on it (admin)',
    body: createTrafficCostSchema,
    responses: { 201: trafficCostResponseSchema, ...errors },
    errors: staffErrorCodes,
  }),
  deleteTrafficCosts: defineEndpoint({
    method: 'DELETE',
    path: '/api/admin/traffic-costs.php',
    tags,
    summary: 'Removes an entered cost (admin)',
    body: trafficCostRefSchema,
    responses: { 200: okSchema, ...errors },
    errors: staffErrorCodes,
  }),
};
