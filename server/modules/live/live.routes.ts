import type { FastifyInstance } from 'fastify';
import type { WebSocket } from 'ws';
import { liveEndpoints } from '#contract/endpoints/live.ts';
import { liveClientFrameSchema, liveCloseCodes } from '#contract/live.ts';
import { schemaOf } from '#server/lib/endpoint-route.ts';
import { AppError } from '#server/lib/errors.ts';
import { memberChannel } from '#server/lib/member-events.ts';
import { releaseUpgradeRequest, socketErrorListener } from '#server/lib/websocket-upgrade.ts';
import { HeartbeatSweep } from './heartbeat.ts';

/**
 * @fastify/websocket's preClose: every open socket (members' and staff's) is closed with 1001
 * "going away", so clients reconnect at once (to another instance) instead of treating it as an error.
 */
export function closeSocketsGoingAway(this: FastifyInstance, done: () => void): void {
  for (const client of this.websocketServer.clients) client.close(liveCloseCodes.goingAway, 'going_away');
  this.websocketServer.close();
  done();
}

/**
 * GET /api/ws: live events for the logged-in member (api-contract.md, Live events). Every instance
 * subscribes its sockets to the member's channel on the event bus, so a message sent through any
 * instance reaches the member's sockets on all of them.
 */
export async function liveRoutes(app: FastifyInstance): Promise<void> {
  const socketsOf = new Map<number, number>();
  // One heartbeat sweep for all sockets; members still connected are reported to presence in batches.
  const sweep = new HeartbeatSweep<WebSocket>((memberIds) => {
    app.deps.notifications.presence
      .seen(memberIds)
      .catch((error: unknown) => app.deps.caught.reportCaught('presence.heartbeat', error));
  });
  app.addHook('onClose', async () => sweep.stop());
  const onSocketError = socketErrorListener(app.log);
  // A socket's handler takes (socket, request), so the declaration gives the path and schema only.
  const endpoint = liveEndpoints.getWs;
  app.get(endpoint.path, { websocket: true, schema: schemaOf(endpoint) }, (socket: WebSocket, request) => {
    releaseUpgradeRequest(socket, request, onSocketError);
    const origin = request.headers.origin;
    if (origin !== undefined && (!URL.canParse(origin) || new URL(origin).host !== request.host)) {
      socket.close(4403, 'forbidden_origin');
      return;
    }
    if (!request.member) {
      socket.close(4401, 'authentication_required');
      return;
    }
    // Only the id lives on with the socket: the session's member row (dates, strings) is not kept
    // for the socket's life, so an idle socket costs little memory.
    const member = { id: request.member.id };
    socketsOf.set(member.id, (socketsOf.get(member.id) ?? 0) + 1);
    const metrics = app.deps.metrics;
    metrics.websocketConnections.inc({ socket: 'member' });
    void app.deps.caught.bestEffort('presence.online', () => app.deps.notifications.markOnline(member.id));
    const unsubscribe = app.deps.bus.subscribe(memberChannel(member.id), (event) => {
      if (socket.readyState !== socket.OPEN) return;
      const type = (event as { type?: unknown }).type;
      if (type === 'sessions_ended') {
        socket.close(liveCloseCodes.unauthenticated, 'authentication_required');
        return;
      }
      socket.send(JSON.stringify(event));
      metrics.websocketFramesSent.inc({ socket: 'member', type: typeof type === 'string' ? type : 'other' });
    });

    sweep.add(socket, member.id);

    socket.on('message', (raw) => {
      let frame: unknown;
      try {
        frame = JSON.parse(String(raw));
      } catch {
        // expected: a client's frame that is not JSON is ignored, as one the schema refuses is.
        return;
      }
      const parsed = liveClientFrameSchema.safeParse(frame);
      if (!parsed.success) return;
      void app.deps.chats.typing(member, parsed.data.conversation).catch((error: unknown) => {
        // A refusal (not the member's conversation) needs no answer; anything else is reported.
        if (!(error instanceof AppError && error.status < 500))
          app.deps.caught.reportCaught('chats.typing', error);
      });
    });
    socket.on('close', () => {
      metrics.websocketConnections.dec({ socket: 'member' });
      sweep.remove(socket);
      unsubscribe();
      const left = (socketsOf.get(member.id) ?? 1) - 1;
      if (left > 0) socketsOf.set(member.id, left);
      else {
        socketsOf.delete(member.id);
        void app.deps.caught.bestEffort('presence.offline', () =>
          app.deps.notifications.markOffline(member.id),
        );
      }
    });
    socket.send(JSON.stringify({ type: 'ready' }));
  });
}
