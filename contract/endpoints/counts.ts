import { errorBodySchema } from '../common.ts';
import { countsResponseSchema } from '../counts.ts';
import { defineEndpoint } from '../endpoint.ts';

export const countsEndpoints = {
  getCounts: defineEndpoint({
    method: 'GET',
    path: '/api/counts.php',
    tags: ['accounts'],
    summary:
      'The badge counts of the shell (unread messages and conversations, new likes, credits) in one query; the root loader and the 60 s poll use it instead of the chats and likes lists',
    responses: { 200: countsResponseSchema, 403: errorBodySchema },
  }),
};
