import type { FastifyInstance } from 'fastify';
import type { WebSocket } from 'ws';
import { z } from 'zod';
import { memberChannel } from '#server/lib/member-events.ts';

export const heartbeatMs = 25_000;

const clientFrame = z.object({ type: z.literal('typing'), conversation: z.number().int().positive() });

/**
 * GET /api/ws: live events for the logged-in member (api-contract.md, Live events). Every instance
 * subscribes its sockets to the member's channel on the event bus, so a message sent through any
 * instance reaches the member's sockets on all of them.
 */
export async function liveRoutes(app: FastifyInstance): Promise<void> {
  const socketsOf = new Map<number, number>();
  app.get('/api/ws', { websocket: true, schema: { hide: true } }, (socket: WebSocket, request) => {
    const member = request.member;
    const origin = request.headers.origin;
    if (origin !== undefined && (!URL.canParse(origin) || new URL(origin).host !== request.host)) {
      socket.close(4403, 'forbidden_origin');
      return;
    }
    if (!member) {
      socket.close(4401, 'authentication_required');
      return;
    }
    socketsOf.set(member.id, (socketsOf.get(member.id) ?? 0) + 1);
    void app.deps.notifications.markOnline(member.id).catch(() => undefined);
    const unsubscribe = app.deps.bus.subscribe(memberChannel(member.id), (event) => {
      if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(event));
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
      void app.deps.notifications.markOnline(member.id).catch(() => undefined);
    }, heartbeatMs);

    socket.on('message', (raw) => {
      let frame: unknown;
      try {
        frame = JSON.parse(String(raw));
      } catch {
        return;
      }
      const parsed = clientFrame.safeParse(frame);
      if (parsed.success) void app.deps.chats.typing(member, parsed.data.conversation).catch(() => undefined);
    });
    socket.on('close', () => {
      clearInterval(heartbeat);
      unsubscribe();
      const left = (socketsOf.get(member.id) ?? 1) - 1;
      if (left > 0) socketsOf.set(member.id, left);
      else {
        socketsOf.delete(member.id);
        void app.deps.notifications.markOffline(member.id).catch(() => undefined);
      }
    });
    socket.send(JSON.stringify({ type: 'ready' }));
  });
}
