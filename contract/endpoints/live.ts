import { defineEndpoint } from '../endpoint.ts';

/** The member's live socket: the frames it carries are contract/live.ts's schemas. */
export const liveEndpoints = {
  getWs: defineEndpoint({
    method: 'GET',
    path: '/api/ws',
    tags: ['live'],
    summary:
      'WebSocket of live events for the logged-in member (LiveEvent frames; the client may send LiveClientFrame)',
  }),
};
