import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { BlockList, isIPv4 } from 'node:net';
import type { FastifyInstance } from 'fastify';

export const requestIdHeader = 'x-request-id';

/** An id a proxy may hand in: short, and nothing that could forge a log line. */
const acceptableId = /^[\w.:@/+=-]{1,128}$/;

/** Whether the direct peer is a proxy of TRUST_PROXY (a count or `true` trusts the peer, addresses only those). */
export function trustedPeer(
  trustProxy: boolean | number | string[],
): (address: string | undefined) => boolean {
  if (trustProxy === false || trustProxy === 0) return () => false;
  if (!Array.isArray(trustProxy)) return (address) => address !== undefined;
  const list = new BlockList();
  for (const entry of trustProxy) {
    const [address, bits] = entry.split('/');
    const type = isIPv4(address!) ? 'ipv4' : 'ipv6';
    if (bits === undefined) list.addAddress(address!, type);
    else list.addSubnet(address!, Number(bits), type);
  }
  return (address) => {
    if (!address) return false;
    const plain = address.startsWith('::ffff:') ? address.slice(7) : address;
    return list.check(plain, isIPv4(plain) ? 'ipv4' : 'ipv6');
  };
}

/**
 * Fastify's genReqId: the X-Request-Id of a trusted proxy (so one id follows a request through the
 * proxy's and the app's logs), else a new UUID. Every log line of a request carries it as `reqId`.
 */
export function requestIdGenerator(trustProxy: boolean | number | string[]) {
  const trusted = trustedPeer(trustProxy);
  return (request: IncomingMessage): string => {
    const incoming = request.headers[requestIdHeader];
    if (
      typeof incoming === 'string' &&
      acceptableId.test(incoming) &&
      trusted(request.socket.remoteAddress)
    ) {
      return incoming;
    }
    return randomUUID();
  };
}

/** Every answer (errors included) names its request id, so a member's report can be traced in the logs. */
export function registerRequestId(app: FastifyInstance): void {
  app.addHook('onRequest', async (request, reply) => {
    reply.header(requestIdHeader, request.id);
  });
}
