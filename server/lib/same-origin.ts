import type { FastifyRequest } from 'fastify';

function sameHost(value: string, host: string): boolean {
  return URL.canParse(value) && new URL(value).host === host;
}

/**
 * Whether a request comes from this site's own pages (or was typed by the visitor): by the
 * browser's Sec-Fetch-Site when it sends one, else by Origin, else by Referer. A request that
 * proves nothing (no such header) is not same-origin.
 */
export function isSameOriginRequest(request: FastifyRequest): boolean {
  const fetchSite = request.headers['sec-fetch-site'];
  if (typeof fetchSite === 'string') return fetchSite === 'same-origin' || fetchSite === 'none';
  const { origin, referer } = request.headers;
  if (typeof origin === 'string') return sameHost(origin, request.host);
  if (typeof referer === 'string') return sameHost(referer, request.host);
  return false;
}
