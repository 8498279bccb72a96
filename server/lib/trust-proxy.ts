/** A hop count: trust that many proxies in front of this server (as proxy-addr does for a number). */
export function trustHops(hops: number) {
  return (_address: string, hop: number) => hop < hops;
}

/**
 * Fastify's trustProxy from TRUST_PROXY. `true` would trust every X-Forwarded-For entry, so a
 * client picks its own address (and escapes rate limits and lockouts) by sending one: it is read as
 * one hop instead, the proxy in front, and the start logs a warning. A count trusts that many hops
 * from the right; addresses trust those proxies.
 */
export function trustProxyOption(value: boolean | number | string[]) {
  if (value === true) return trustHops(1);
  if (typeof value === 'number') return trustHops(value);
  return value;
}

export const trustProxyTrueWarning =
  'TRUST_PROXY=true is read as 1 hop (the proxy in front): set the number of proxies or their addresses';
