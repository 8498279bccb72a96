import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import fastifyHelmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import type { Config } from '#server/config.ts';

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

type PerRequest = { nonce: string; cdn: string | null; host: string | null };

/**
 * Security headers on every answer (helmet): a Content-Security-Policy whose scripts need this
 * response's nonce, nosniff, a referrer policy, no framing, a Permissions-Policy, and HSTS when the
 * request came over HTTPS (directly or from a trusted proxy).
 */
export async function registerSecurityHeaders(app: FastifyInstance, config: Config): Promise<void> {
  const development = config.NODE_ENV === 'development';
  const perRequest = new WeakMap<IncomingMessage, PerRequest>();
  const get = (req: IncomingMessage): PerRequest =>
    perRequest.get(req) ?? { nonce: randomBytes(16).toString('base64'), cdn: null, host: null };
  const storageSources = storageImageSources(config);
  const mollie =
    config.PAYMENT_PROVIDER === 'mollie' ? ['https://www.mollie.com', 'https://*.mollie.com'] : [];

  app.decorateRequest('cspNonce', '');
  // Before helmet's own hook: the nonce and the site's CDN for the directives below.
  app.addHook('onRequest', async (request) => {
    request.cspNonce = randomBytes(16).toString('base64');
    const site = await app.deps.sites.resolve(request.host).catch(() => null);
    perRequest.set(request.raw, {
      nonce: request.cspNonce,
      cdn: originOf(site?.cdnPrefix),
      host: ownHost(request.host),
    });
  });

  await app.register(fastifyHelmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        'default-src': ["'self'"],
        'base-uri': ["'self'"],
        'object-src': ["'none'"],
        'frame-ancestors': ["'none'"],
        'form-action': ["'self'", ...mollie],
        // The page's inline scripts (React Router's context and hydration, React's streaming) carry
        // the nonce; the module scripts come from this origin. No inline event handlers.
        'script-src': ["'self'", (req) => `'nonce-${get(req).nonce}'`],
        'script-src-attr': ["'none'"],
        // Style attributes of server-rendered markup (and Vite's injected styles in development).
        'style-src': ["'self'", "'unsafe-inline'"],
        'img-src': ["'self'", 'data:', 'blob:', ...storageSources, (req) => get(req).cdn ?? "'self'"],
        'font-src': ["'self'", 'data:'],
        // The live-events WebSocket on this host ('self' covers ws/wss in current browsers only),
        // and Vite's hot-reload socket in development.
        'connect-src': [
          "'self'",
          (req) => {
            const host = get(req).host;
            return host ? `ws://${host} wss://${host}` : "'self'";
          },
          ...(development ? ['ws:', 'wss:'] : []),
        ],
        'worker-src': ["'self'"],
        'manifest-src': ["'self'"],
        'media-src': ["'self'"],
        'frame-src': ["'none'"],
      },
    },
    // HSTS only over HTTPS: set below from the request's protocol.
    strictTransportSecurity: false,
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    xFrameOptions: { action: 'deny' },
    crossOriginEmbedderPolicy: false,
    crossOriginOpenerPolicy: { policy: 'same-origin' },
    crossOriginResourcePolicy: { policy: 'same-origin' },
  });

  app.addHook('onSend', async (request, reply) => {
    reply.header('permissions-policy', permissionsPolicy);
    if (request.protocol === 'https') reply.header('strict-transport-security', hstsHeader);
    if (sharedResourcePaths.some((prefix) => request.url.startsWith(prefix))) {
      reply.header('cross-origin-resource-policy', 'cross-origin');
    }
  });
}
