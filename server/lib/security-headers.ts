import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Config } from '#server/config.ts';
import { NoSiteConfiguredError } from '#server/modules/sites/sites.service.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** This response's CSP nonce: the server-rendered page's own scripts carry it. */
    cspNonce: string;
  }
}

/** The features a page may use: geolocation for "use my location" in the profile, nothing else. */
export const permissionsPolicy =
  'camera=(), microphone=(), geolocation=(self), payment=(), usb=(), serial=(), midi=(), display-capture=()';

export const hstsHeader = 'max-age=31536000; includeSubDomains';

/** Paths loaded by other origins too (a site's CDN in front of the media, the build's assets). */
const sharedResourcePaths = ['/media/', '/assets/', '/icons/', '/favicon.svg'];

/**
 * The build's scripts and style sheets: never a document, so a policy for documents (CSP, framing,
 * referrer, permissions, the opener) does nothing there. A member's page loads some 60 of them,
 * each with 1.3 KB of headers over HTTP/1.1 (~80 KB of the page's scripts on the wire), and each
 * looked its site up for the policy; they carry nosniff and their resource policy only. Anything
 * else under /assets/ (an SVG opened on its own is a document) keeps every header.
 */
function isBuildScriptOrStyle(url: string): boolean {
  if (!url.startsWith('/assets/')) return false;
  const end = url.search(/[?#]/);
  const path = end === -1 ? url : url.slice(0, end);
  return path.endsWith('.js') || path.endsWith('.css');
}

function originOf(url: string | undefined): string | null {
  if (!url || !URL.canParse(url)) return null;
  const { protocol, origin } = new URL(url);
  if (protocol !== 'https:' && protocol !== 'http:') return null;
  return /[\s;,'"]/.test(origin) ? null : origin;
}

/**
 * Where media may come from besides this origin: the object storage's public URL, its endpoint
 * (presigned links of private photos, path or virtual-host style) and, per site, its CDN prefix.
 */
export function storageImageSources(config: Config): string[] {
  if (!config.S3_BUCKET) return [];
  const sources = new Set<string>();
  const add = (url: string | undefined) => {
    const origin = originOf(url);
    if (origin) sources.add(origin);
  };
  add(config.S3_PUBLIC_URL);
  if (config.S3_ENDPOINT) {
    add(config.S3_ENDPOINT);
    const endpoint = new URL(config.S3_ENDPOINT);
    sources.add(`${endpoint.protocol}//*.${endpoint.host}`);
  } else {
    add(`https://${config.S3_BUCKET}.s3.${config.S3_REGION}.amazonaws.com`);
    add(`https://s3.${config.S3_REGION}.amazonaws.com`);
  }
  return [...sources];
}

/** The request's own host for ws:/wss: sources, when it is a plain host[:port]. */
function ownHost(host: string | undefined): string | null {
  return host && /^[a-z0-9.-]+(:\d{1,5})?$/i.test(host) ? host : null;
}

/** CSP nonces: 16 random bytes each, cut from a buffer refilled 256 nonces at a time (one syscall). */
function nonceSource(): () => string {
  const size = 16;
  let pool = randomBytes(size * 256);
  let offset = 0;
  return () => {
    if (offset === pool.length) {
      pool = randomBytes(pool.length);
      offset = 0;
    }
    const nonce = pool.toString('base64', offset, offset + size);
    offset += size;
    return nonce;
  };
}

/**
 * Security headers on every answer: a Content-Security-Policy whose scripts need this response's
 * nonce, nosniff, a referrer policy, no framing, a Permissions-Policy, and HSTS when the request came
 * over HTTPS (directly or from a trusted proxy). The same set helmet sends, written once at start:
 * only the nonce, the site's CDN and the host differ per answer (decision 021).
 */
export async function registerSecurityHeaders(app: FastifyInstance, config: Config): Promise<void> {
  const development = config.NODE_ENV === 'development';
  const nextNonce = nonceSource();
  const storageSources = storageImageSources(config);
  const mollie =
    config.PAYMENT_PROVIDER === 'mollie' ? ['https://www.mollie.com', 'https://*.mollie.com'] : [];

  // The policy up to the nonce, and after it per (CDN, host): a handful of strings per site.
  const policyHead = [
    "default-src 'self'",
    "base-uri 'self'",
    "object-src 'none'",
    "frame-ancestors 'none'",
    ['form-action', "'self'", ...mollie].join(' '),
    // The page's inline scripts (React Router's context and hydration, React's streaming) carry
    // the nonce; the module scripts come from this origin. No inline event handlers.
    "script-src 'self' 'nonce-",
  ].join(';');
  const policyTail = (cdn: string | null, host: string | null) =>
    [
      "'",
      "script-src-attr 'none'",
      // Style attributes of server-rendered markup (and Vite's injected styles in development).
      "style-src 'self' 'unsafe-inline'",
      ['img-src', "'self'", 'data:', 'blob:', ...storageSources, cdn ?? "'self'"].join(' '),
      "font-src 'self' data:",
      // The live-events WebSocket on this host ('self' covers ws/wss in current browsers only),
      // and Vite's hot-reload socket in development.
      [
        'connect-src',
        "'self'",
        host ? `ws://${host} wss://${host}` : "'self'",
        ...(development ? ['ws:', 'wss:'] : []),
      ].join(' '),
      "worker-src 'self'",
      "manifest-src 'self'",
      "media-src 'self'",
      "frame-src 'none'",
    ].join(';');
  const tails = new Map<string, string>();
  const tailFor = (cdn: string | null, host: string | null): string => {
    const key = `${cdn ?? ''} ${host ?? ''}`;
    let tail = tails.get(key);
    if (tail === undefined) {
      // Hosts come from requests: the map stays small whatever a client sends.
      if (tails.size >= 1000) tails.clear();
      tail = policyTail(cdn, host);
      tails.set(key, tail);
    }
    return tail;
  };
  const everyAnswer = {
    'cross-origin-opener-policy': 'same-origin',
    'origin-agent-cluster': '?1',
    'referrer-policy': 'strict-origin-when-cross-origin',
    'x-content-type-options': 'nosniff',
    'x-dns-prefetch-control': 'off',
    'x-download-options': 'noopen',
    'x-frame-options': 'DENY',
    'x-permitted-cross-domain-policies': 'none',
    'x-xss-protection': '0',
    'permissions-policy': permissionsPolicy,
  };

  app.decorateRequest('cspNonce', '');
  app.addHook('onRequest', async (request, reply) => {
    if (isBuildScriptOrStyle(request.url)) {
      reply.header('x-content-type-options', 'nosniff');
      reply.header('cross-origin-resource-policy', 'cross-origin');
      if (request.protocol === 'https') reply.header('strict-transport-security', hstsHeader);
      return;
    }
    request.cspNonce = nextNonce();
    // Without a site (none set up yet, or the database away) the policy names no CDN origin.
    const site = await app.deps.sites.resolve(request.host).catch((error: unknown) => {
      if (!(error instanceof NoSiteConfiguredError))
        app.deps.caught.reportCaught('security-headers.site', error);
      return null;
    });
    reply.headers(everyAnswer);
    reply.header(
      'content-security-policy',
      policyHead + request.cspNonce + tailFor(originOf(site?.cdnPrefix), ownHost(request.host)),
    );
    reply.header(
      'cross-origin-resource-policy',
      sharedResourcePaths.some((prefix) => request.url.startsWith(prefix)) ? 'cross-origin' : 'same-origin',
    );
    // HSTS only over HTTPS.
    if (request.protocol === 'https') reply.header('strict-transport-security', hstsHeader);
  });
}
