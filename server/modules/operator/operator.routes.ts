import type { FastifyInstance } from 'fastify';
import type { WebSocket } from 'ws';
import { z } from 'zod';
import {
  adminConversationResponseSchema,
  claimResponseSchema,
  conversationQuerySchema,
  conversationRefSchema,
  createNoteSchema,
  inboxQuerySchema,
  inboxResponseSchema,
  noteResponseSchema,
  operatorStatsSchema,
  replyResponseSchema,
  replySchema,
} from '#contract/admin.ts';
import { errorBodySchema, okSchema } from '#contract/common.ts';
import { AppError } from '#server/lib/errors.ts';
import { staffChannel } from '#server/lib/staff-events.ts';
import { releaseUpgradeRequest, socketErrorListener } from '#server/lib/websocket-upgrade.ts';
import type { ZodApp } from '#server/lib/zod-app.ts';
import { requireStaff } from '#server/modules/staff/staff.sessions.ts';

const errors = {
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
  409: errorBodySchema,
  422: errorBodySchema,
  429: errorBodySchema,
};
const tags = ['admin'];
export const staffHeartbeatMs = 25_000;
const messageEvent = z.object({ type: z.literal('message'), conversation: z.number().int() });

/** The operator console's calls (api-contract.md, Staff calls). */
export async function operatorRoutes(app: ZodApp): Promise<void> {
  const operator = app.deps.operator;

  app.get(
    '/api/admin/inbox.php',
    {
      schema: {
        tags,
        summary: 'Conversations waiting for a fictional profile’s reply, longest waiting first',
        querystring: inboxQuerySchema,
        response: { 200: inboxResponseSchema, ...errors },
      },
    },
    async (request) => {
      requireStaff(request);
      return { conversations: await operator.inbox(request.query) };
    },
  );

  app.post(
    '/api/admin/claim.php',
    {
      schema: {
        tags,
        summary: 'Claims a conversation for 5 minutes (renews the own claim). 409 claimed',
        body: conversationRefSchema,
        response: { 200: claimResponseSchema, ...errors },
      },
    },
    async (request) => operator.claim(requireStaff(request), request.body.conversation, request.ip),
  );

  app.delete(
    '/api/admin/claim.php',
    {
      schema: {
        tags,
        summary: 'Gives an own claim back to the queue',
        body: conversationRefSchema,
        response: { 200: okSchema, ...errors },
      },
    },
    async (request) => {
      await operator.release(requireStaff(request), request.body.conversation, request.ip);
      return { ok: true as const };
    },
  );

  app.post(
    '/api/admin/typing.php',
    {
      config: { rateLimit: { max: 60, timeWindow: '1 minute' } },
      schema: {
        tags,
        summary: 'The operator is typing: renews the claim; the member sees the profile typing',
        body: conversationRefSchema,
        response: { 200: okSchema, ...errors },
      },
    },
    async (request) => {
      await operator.typing(requireStaff(request), request.body.conversation);
      return { ok: true as const };
    },
  );

  app.get(
    '/api/admin/conversation.php',
    {
      schema: {
        tags,
        summary: 'A member ↔ fictional profile conversation with both profiles, facts and notes (audited)',
        querystring: conversationQuerySchema,
        response: { 200: adminConversationResponseSchema, ...errors },
      },
    },
    async (request) => operator.view(requireStaff(request), request.query.id, request.ip),
  );

  app.post(
    '/api/admin/reply.php',
    {
      schema: {
        tags,
        summary: 'Replies as the fictional profile (text or one of its photos); free of credits. 409 claimed',
        body: replySchema,
        response: { 201: replyResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      const message = await operator.reply(requireStaff(request), request.body, request.ip);
      reply.status(201);
      return { message };
    },
  );

  app.post(
    '/api/admin/notes.php',
    {
      schema: {
        tags,
        summary: 'A note about the member or the fictional profile; it follows them into every conversation',
        body: createNoteSchema,
        response: { 201: noteResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      const note = await operator.addNote(requireStaff(request), request.body, request.ip);
      reply.status(201);
      return { note };
    },
  );

  app.get(
    '/api/admin/operator-stats.php',
    {
      schema: {
        tags,
        summary: 'Replies today, median reply time, conversations waiting per site (per operator for admins)',
        response: { 200: operatorStatsSchema, ...errors },
      },
    },
    async (request) => operator.stats(requireStaff(request)),
  );
}

/**
 * GET /api/admin/ws: live back-office events (inbox, claim, message) for staff, from the event bus,
 * so an event on any instance reaches the staff sockets of all of them.
 */
export async function operatorLiveRoutes(app: FastifyInstance): Promise<void> {
  const schema = {
    tags: ['staff'],
    summary: 'WebSocket of live back-office events for staff (AdminEvent frames)',
  };
  const onSocketError = socketErrorListener(app.log);
  app.get('/api/admin/ws', { websocket: true, schema }, (socket: WebSocket, request) => {
    releaseUpgradeRequest(socket, request, onSocketError);
    const origin = request.headers.origin;
    if (origin !== undefined && (!URL.canParse(origin) || new URL(origin).host !== request.host)) {
      socket.close(4403, 'forbidden_origin');
      return;
    }
    let staffId: number;
    try {
      staffId = requireStaff(request).id;
    } catch (error) {
      socket.close(4403, error instanceof AppError ? error.code : 'forbidden');
      return;
    }
    app.deps.metrics.websocketConnections.inc({ socket: 'staff' });
    const send = (event: unknown) => {
      if (socket.readyState !== socket.OPEN) return;
      socket.send(JSON.stringify(event));
      const type = (event as { type?: unknown }).type;
      app.deps.metrics.websocketFramesSent.inc({
        socket: 'staff',
        type: typeof type === 'string' ? type : 'other',
      });
    };
    const unsubscribe = app.deps.bus.subscribe(staffChannel, (event) => {
      // Queue and claim changes go to every staff socket; a message's content only to the operator holding it.
      const message = messageEvent.safeParse(event);
      if (!message.success) return send(event);
      void app.deps.operator
        .holds(staffId, message.data.conversation)
        .then((holder) => holder && send(event))
        .catch((error: unknown) => app.deps.caught.reportCaught('operator.live-message-holder', error));
    });
    let alive = true;
    socket.on('pong', () => {
      alive = true;
    });
    const heartbeat = setInterval(() => {
      if (!alive) {
        socket.terminate();
        return;
      }
      alive = false;
      socket.ping();
    }, staffHeartbeatMs);
    socket.on('close', () => {
      app.deps.metrics.websocketConnections.dec({ socket: 'staff' });
      clearInterval(heartbeat);
      unsubscribe();
    });
    socket.send(JSON.stringify({ type: 'ready' }));
  });
}
