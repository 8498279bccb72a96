import type { FastifyInstance } from 'fastify';
import type { WebSocket } from 'ws';
import { z } from 'zod';
import { operatorEndpoints } from '#contract/endpoints/operator.ts';
import type { StaffRow } from '#server/db/schema/staff.ts';
import { routeOf, schemaOf } from '#server/lib/endpoint-route.ts';
import { AppError } from '#server/lib/errors.ts';
import { type StaffEvent, staffChannel } from '#server/lib/staff-events.ts';
import { releaseUpgradeRequest, socketErrorListener } from '#server/lib/websocket-upgrade.ts';
import type { ZodApp } from '#server/lib/zod-app.ts';
import { requireStaff } from '#server/modules/staff/staff.sessions.ts';
import { mayAnswer } from './operator.service.ts';

export const staffHeartbeatMs = 25_000;
const messageEvent = z.object({ type: z.literal('message'), conversation: z.number().int() });

/**
 * The operator console's calls (api-contract.md, Staff calls and the workbench), each registered
 * from its declaration in contract/endpoints/operator.ts.
 */
export async function operatorRoutes(app: ZodApp): Promise<void> {
  const operator = app.deps.operator;

  routeOf(app, operatorEndpoints.getInbox, {}, async (request) =>
    operator.inbox(requireStaff(request), request.query),
  );

  routeOf(app, operatorEndpoints.postNext, {}, async (request) => ({
    conversation: await operator.next(requireStaff(request), request.body, request.ip),
  }));

  routeOf(app, operatorEndpoints.postClaim, {}, async (request) =>
    operator.claim(requireStaff(request), request.body.conversation, request.ip),
  );

  routeOf(app, operatorEndpoints.deleteClaim, {}, async (request) => {
    await operator.release(requireStaff(request), request.body.conversation, request.ip);
    return { ok: true as const };
  });

  routeOf(
    app,
    operatorEndpoints.postTyping,
    { config: { rateLimit: { max: 60, timeWindow: '1 minute' } } },
    async (request) => {
      await operator.typing(requireStaff(request), request.body.conversation);
      return { ok: true as const };
    },
  );

  routeOf(app, operatorEndpoints.getConversation, {}, async (request) =>
    operator.view(requireStaff(request), request.query.id, request.ip),
  );

  routeOf(app, operatorEndpoints.postReply, {}, async (request, reply) => {
    const message = await operator.reply(requireStaff(request), request.body, request.ip);
    reply.status(201);
    return { message };
  });

  routeOf(app, operatorEndpoints.postNote, {}, async (request, reply) => {
    const note = await operator.addNote(requireStaff(request), request.body, request.ip);
    reply.status(201);
    return { note };
  });

  routeOf(app, operatorEndpoints.getOperatorStats, {}, async (request) =>
    operator.stats(requireStaff(request), request.query),
  );

  routeOf(app, operatorEndpoints.getOperatorStatsExport, {}, async (request, reply) => {
    const body = await operator.statsCsv(requireStaff(request), request.query);
    const { from = 'today', to = from } = request.query;
    reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="operators-${from}-${to}.csv"`)
      .header('cache-control', 'no-store');
    return body;
  });

  routeOf(app, operatorEndpoints.getTemplates, {}, async (request) => ({
    templates: await operator.templates(requireStaff(request), request.query),
  }));

  routeOf(app, operatorEndpoints.postTemplate, {}, async (request, reply) => {
    const template = await operator.createTemplate(requireStaff(request), request.body, request.ip);
    reply.status(201);
    return { template };
  });

  routeOf(app, operatorEndpoints.putTemplate, {}, async (request) => ({
    template: await operator.updateTemplate(requireStaff(request), request.body, request.ip),
  }));

  routeOf(app, operatorEndpoints.deleteTemplate, {}, async (request) => {
    await operator.deleteTemplate(requireStaff(request), request.body.id, request.ip);
    return { ok: true as const };
  });

  routeOf(app, operatorEndpoints.getPersona, {}, async (request) => ({
    persona: await operator.persona(requireStaff(request), request.query.profile),
  }));

  routeOf(app, operatorEndpoints.putPersona, {}, async (request) => ({
    persona: await operator.updatePersona(requireStaff(request), request.body, request.ip),
  }));
}

const queueEvent = z.object({
  type: z.literal('queue'),
  conversation: z.number().int(),
  waiting: z.boolean(),
});
const claimEvent = z.object({
  type: z.literal('claim'),
  conversation: z.number().int(),
  claimed_by: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  claim_expires_at: z.string().nullable(),
  scope: z.object({ siteId: z.number().int(), language: z.string() }),
});

type Listener = { staff: StaffRow; send: (event: unknown) => void };

/**
 * GET /api/admin/ws: live back-office events for staff, from the event bus, so an event on any
 * instance reaches the staff sockets of all of them. One relay per instance turns each queue change
 * into the row itself (`inbox` add/update/remove, read once per instance, not per socket) and sends
 * queue and claim events only to staff assigned to the member's site and language; a message's
 * content goes only to the operator holding the conversation. A socket knows its staff member's
 * assignment as it was when it opened (a changed assignment applies from the next connection).
 */
export async function operatorLiveRoutes(app: FastifyInstance): Promise<void> {
  const listeners = new Set<Listener>();
  const toAssigned = (scope: { siteId: number; language: string } | null, event: unknown) => {
    for (const listener of listeners) {
      if (scope === null || mayAnswer(listener.staff, scope)) listener.send(event);
    }
  };
  const relay = async (event: unknown) => {
    const queue = queueEvent.safeParse(event);
    if (queue.success) {
      const change = await app.deps.operator.queueEvent(queue.data.conversation);
      return toAssigned(change.scope, change.event);
    }
    const claim = claimEvent.safeParse(event);
    if (claim.success) {
      const { scope, ...frame } = claim.data;
      return toAssigned(scope, frame satisfies Omit<Extract<StaffEvent, { type: 'claim' }>, 'scope'>);
    }
    const message = messageEvent.safeParse(event);
    if (!message.success) return toAssigned(null, event);
    const holder = await app.deps.operator.holder(message.data.conversation);
    if (holder === null) return;
    for (const listener of listeners) if (listener.staff.id === holder) listener.send(event);
  };
  const unsubscribe = app.deps.bus.subscribe(staffChannel, (event) => {
    if (listeners.size === 0) return;
    relay(event).catch((error: unknown) => app.deps.caught.reportCaught('operator.live-relay', error));
  });
  app.addHook('onClose', async () => unsubscribe());

  // A socket's handler takes (socket, request), so the declaration gives the path and schema only.
  const endpoint = operatorEndpoints.getWs;
  const onSocketError = socketErrorListener(app.log);
  app.get(endpoint.path, { websocket: true, schema: schemaOf(endpoint) }, (socket: WebSocket, request) => {
    releaseUpgradeRequest(socket, request, onSocketError);
    const origin = request.headers.origin;
    if (origin !== undefined && (!URL.canParse(origin) || new URL(origin).host !== request.host)) {
      socket.close(4403, 'forbidden_origin');
      return;
    }
    let staff: StaffRow;
    try {
      staff = requireStaff(request);
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
    const listener: Listener = { staff, send };
    listeners.add(listener);
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
      listeners.delete(listener);
    });
    socket.send(JSON.stringify({ type: 'ready' }));
  });
}
