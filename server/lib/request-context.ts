import type { FastifyInstance, FastifyRequest } from 'fastify';
import { isLocale, localeCookieName, negotiateLocale } from '#contract/locales.ts';
import { CsrfError } from './errors.ts';
import { countryForIp } from './geoip.ts';

const safeMethods = new Set(['GET', 'HEAD', 'OPTIONS']);
export const trackingCookie = 'tracking';
export const trackingKeys = ['network', 'ref', 'sub1', 'sub2', 'sub3'] as const;

/**
 * Before any handler: the site from the host, the visitor's language and country, and the
 * CSRF rule of the contract for calls that change data with a cookie.
 */
export function registerRequestContext(app: FastifyInstance): void {
  app.decorateRequest('site', null as never);
  app.decorateRequest('locale', null as never);
  app.decorateRequest('clientCountry', null);

  app.addHook('onRequest', async (request) => {
    request.site = await app.deps.sites.resolve(request.host);
    const query = request.query as Record<string, unknown> | undefined;
    request.locale = negotiateLocale({
      // ?lang= previews a language for one request (hreflang alternates), without changing the cookie.
      cookie: isLocale(query?.lang) ? query.lang : request.cookies[localeCookieName],
      acceptLanguage: request.headers['accept-language'],
      domainLanguage: request.site.domainLanguage,
    });
    request.clientCountry = countryForIp(request.ip);
    checkCsrf(request);
  });

  // Ad traffic: network, ref and sub1–sub3 of the landing URL are kept for 30 days and stored on signup.
  app.addHook('onRequest', async (request, reply) => {
    if (request.method !== 'GET' || request.url.startsWith('/api/')) return;
    const query = request.query as Record<string, unknown> | undefined;
    if (!query) return;
    const tracking = Object.fromEntries(
      trackingKeys.flatMap((key) =>
        typeof query[key] === 'string' && query[key] ? [[key, String(query[key]).slice(0, 200)]] : [],
      ),
    );
    if (Object.keys(tracking).length === 0) return;
    reply.setCookie(trackingCookie, JSON.stringify(tracking), {
      path: '/',
      maxAge: 30 * 24 * 3600,
      sameSite: 'lax',
      httpOnly: true,
      secure: request.protocol === 'https',
    });
  });
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
