import { ServerResponse } from 'node:http';
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';

/** One 'error' listener for every socket of a route: logs and drops the socket. */
export function socketErrorListener(log: FastifyBaseLogger): (this: WebSocket, error: Error) => void {
  return function onSocketError(this: WebSocket, error: Error) {
    log.warn({ err: error }, 'websocket error');
    this.terminate();
  };
}

/**
 * What an open socket keeps of its handshake: nothing, so an idle socket costs little memory. Without this a
 * socket holds its upgrade request for life, twice: @fastify/websocket's 'error' listener closes
 * over Fastify's request and reply, and the HTTP response made for the upgrade stays attached to
 * the TCP socket; with them the session's member row, the headers, a child logger: ~2.5 KB a socket.
 * The handler calls this first; `onError` takes over the plugin's error listener (log, terminate).
 */
export function releaseUpgradeRequest(
  socket: WebSocket,
  request: FastifyRequest,
  onError: (this: WebSocket, error: Error) => void,
): void {
  const tcp = request.raw.socket;
  // Node's own link from a TCP socket to the response written on it (not in its type declarations).
  const response: unknown = Reflect.get(tcp, '_httpMessage');
  if (response instanceof ServerResponse) response.detachSocket(tcp);
  socket.removeAllListeners('error');
  socket.on('error', onError);
}
