import { errorBodySchema } from '../common.ts';
import { defineEndpoint } from '../endpoint.ts';
import { winbackQuerySchema, winbackResponseSchema, winbackRuleSchema } from '../winback.ts';

const errors = { 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema, 422: errorBodySchema };

/** The win-back rule of a site (admin): one personal discount mail to members gone inactive. */
export const winbackEndpoints = {
  getWinback: defineEndpoint({
    method: 'GET',
    path: '/api/admin/winback.php',
    tags: ['admin'],
    summary: 'A site’s win-back rule (defaults when never saved, inactive) and its results (admin)',
    query: winbackQuerySchema,
    responses: { 200: winbackResponseSchema, ...errors },
  }),
  putWinback: defineEndpoint({
    method: 'PUT',
    path: '/api/admin/winback.php',
    tags: ['admin'],
    summary: 'Saves a site’s win-back rule (admin); 422 validation_failed with fields',
    body: winbackRuleSchema,
    responses: { 200: winbackResponseSchema, ...errors },
  }),
};
