import type { FastifyInstance, FastifyRequest } from 'fastify';
import { isLocale, localeCookieMaxAgeSeconds, localeCookieName, negotiateLocale } from '#contract/locales.ts';
import { AppError, CsrfError, ValidationFailedError } from './errors.ts';
import { countryForIp } from './geoip.ts';
import { inProcessPageUrl } from './in-process.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route needs no site (health checks, metrics): it answers while the database holds none. */
    siteless?: boolean;
  }
}

const safeMethods = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The paths the back office needs before the first site exists: its pages, its API, their assets. */
export function servedBeforeTheFirstSite(url: string): boolean {
  const path = url.split('?')[0] ?? '';
  return (
    path === '/admin' ||
    // The data of a client-side navigation to the back office's start (React Router's single fetch).
    path === '/admin.data' ||
    path.startsWith('/admin/') ||
    path.startsWith('/api/admin/') ||
    path.startsWith('/assets/') ||
    path.startsWith('/i18n/') ||
    // React Router asks for the routes of a page it navigates to (lazy route discovery): without
    // them the back office's first client-side navigation fails into the error page.
    path === '/__manifest' ||
    // What every page links: the icon, the web manifest and the service worker.
    path === '/favicon.svg' ||
    path === '/manifest.webmanifest' ||
    path === '/sw.js' ||
    path.startsWith('/icons/')
  );
}
export const trackingCookie = 'tracking';

/**
 * Before any handler: the site from the host, the visitor's language and country, and the
 * CSRF rule of the contract for calls that change data with a cookie.
 */
export function registerRequestContext(app: FastifyInstance): void {
  app.decorateRequest('site', null as never);
  app.decorateRequest('locale', null as never);
  // The visitor's country from the address, looked up on first use (few routes need it).
  const countries = new WeakMap<FastifyRequest, string | null>();
  app.decorateRequest('clientCountry', {
    getter(this: FastifyRequest): string | null {
      let country = countries.get(this);
      if (country === undefined) {
        country = countryForIp(this.ip);
        countries.set(this, country);
      }
      return country;
    },
  });

  app.addHook('onRequest', async (request, reply) => {
    // A Host that is no host[:port] (e.g. "[::1" or "evil.test:99999") is refused before anything builds a URL from it.
    if (!isValidHost(request.host)) throw new AppError(400, 'bad_request');
    // Health checks and /metrics answer without a site (also before the first one exists).
    if (request.routeOptions.config?.siteless) return;
    // No site in the database: NoSiteConfiguredError, answered by the setup page or 503 setup_required,
    // except for the back office, which runs under a provisional site until the first one exists.
    request.site = await app.deps.sites.resolve(request.host, {
      provisional: servedBeforeTheFirstSite(inProcessPageUrl() ?? request.url),
    });
    const query = request.query as Record<string, unknown> | undefined;
    const chosen = isLocale(query?.lang) ? query.lang : undefined;
    request.locale = negotiateLocale({
      // ?lang= (the hreflang alternates, the language links) chooses the language like the cookie does.
      cookie: chosen ?? request.cookies[localeCookieName],
      acceptLanguage: request.headers['accept-language'],
      domainLanguage: request.site.domainLanguage,
    });
    // A page opened with ?lang= keeps that language on the pages that follow.
    if (chosen && !request.url.startsWith('/api/') && chosen !== request.cookies[localeCookieName]) {
      reply.setCookie(localeCookieName, chosen, {
        path: '/',
        maxAge: localeCookieMaxAgeSeconds,
        sameSite: 'lax',
        secure: request.protocol === 'https',
      });
    }
    checkCsrf(request);
  });

  // The language was negotiated from the cookie and Accept-Language: caches must keep one copy per both.
  app.addHook('onSend', async (request, reply, payload) => {
    const type = String(reply.getHeader('content-type') ?? '');
    if (!request.locale || !/^(text\/html|application\/json)/.test(type)) return payload;
    reply.header('content-language', request.locale);
    const vary = String(reply.getHeader('vary') ?? '');
    const names = new Set(
      vary
        .split(',')
        .map((name) => name.trim())
        .filter(Boolean),
    );
    for (const name of ['Accept-Language', 'Cookie']) {
      if (![...names].some((existing) => existing.toLowerCase() === name.toLowerCase())) names.add(name);
    }
    reply.header('vary', [...names].join(', '));
    return payload;
  });

  // PostgreSQL text cannot hold NUL, nor jsonb a lone surrogate (a browser never sends one): an API
  // call with either anywhere in its query, path or JSON body is a 422.
  app.addHook('preValidation', async (request) => {
    if (!request.url.startsWith('/api/')) return;
    const field = nulField(request.query, '') ?? nulField(request.params, '') ?? nulField(request.body, '');
    if (field !== undefined) throw new ValidationFailedError({ [field || '_']: 'invalid' });
  });

  // Ad traffic: network, ref and sub1–sub3 of the landing URL are one visit (a landing click, with its
  // click id and lander), kept in a cookie for 30 days and stored on signup (server/modules/tracking).
  app.addHook('onRequest', async (request, reply) => {
    if (request.method !== 'GET' || request.url.startsWith('/api/') || request.routeOptions.config?.siteless)
      return;
    const query = request.query as Record<string, unknown> | undefined;
    const path = request.url.split('?')[0] ?? '/';
    if (!query || path.endsWith('.data')) return;
    const tracking = await app.deps.tracking.capture({
      siteId: request.site.id,
      path,
      query,
      cookie: request.cookies[trackingCookie],
      userAgent: request.headers['user-agent'],
    });
    if (!tracking) return;
    reply.setCookie(trackingCookie, JSON.stringify(tracking), {
      path: '/',
      maxAge: 30 * 24 * 3600,
      sameSite: 'lax',
      httpOnly: true,
      secure: request.protocol === 'https',
    });
  });
}

/** host or host:port as a browser sends it; an absent Host (HTTP/1.0) gets the default site. */
export function isValidHost(host: string | undefined): boolean {
  if (!host) return true;
  if (validHosts.has(host)) return true;
  if (!/^[\w.-]+(:\d{1,5})?$|^\[[\da-f:.]+\](:\d{1,5})?$/i.test(host)) return false;
  if (!URL.canParse(`http://${host}/`)) return false;
  // The sites' few hosts are checked once; the set stays small whatever clients send.
  if (validHosts.size >= 1000) validHosts.clear();
  validHosts.add(host);
  return true;
}
const validHosts = new Set<string>();

const loneSurrogate = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const unstorable = (text: string) => text.includes('\u0000') || loneSurrogate.test(text);

/** The dotted path of the first key or string holding a NUL character or a lone surrogate, or undefined. */
function nulField(value: unknown, path: string, depth = 0): string | undefined {
  if (typeof value === 'string') return unstorable(value) ? path : undefined;
  if (typeof value !== 'object' || value === null || depth > 32) return undefined;
  for (const [key, item] of Object.entries(value)) {
    const itemPath = path ? `${path}.${key}` : key;
    if (unstorable(key)) return itemPath.replaceAll('\u0000', '').replace(loneSurrogate, '');
    const found = nulField(item, itemPath, depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** Contract: a call that changes data with a cookie is JSON or multipart, and never from a foreign Origin. */
function checkCsrf(request: FastifyRequest): void {
  if (safeMethods.has(request.method) || !request.url.startsWith('/api/')) return;
  if (!request.headers.cookie) return;
  const contentType = request.headers['content-type'] ?? '';
  const hasBody =
    request.headers['transfer-encoding'] !== undefined ||
    (request.headers['content-length'] !== undefined && request.headers['content-length'] !== '0');
  if (hasBody && !/^(application\/json|multipart\/form-data)\b/i.test(contentType)) throw new CsrfError();
  const origin = request.headers.origin;
  if (origin === undefined) return;
  if (!URL.canParse(origin) || new URL(origin).host !== request.host) throw new CsrfError();
}
