import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { UserRow } from '#server/db/schema/members.ts';
import { AuthenticationRequiredError } from '#server/lib/errors.ts';
import { selectedCountry } from '#server/modules/sites/sites.service.ts';
import { type RequestContext, sessionDays } from './accounts.service.ts';

export const sessionCookieName = 'sid';

declare module 'fastify' {
  interface FastifyRequest {
    /** The logged-in member, or null. */
    member: UserRow | null;
  }
}

/** Resolves the session cookie once per request, for every route. */
export function registerSessions(app: FastifyInstance): void {
  app.decorateRequest('member', null);
  app.addHook('onRequest', async (request) => {
    const token = request.cookies[sessionCookieName];
    if (token && token.length <= 100) request.member = await app.deps.accounts.resolveSession(token);
  });
}

export function setSessionCookie(request: FastifyRequest, reply: FastifyReply, token: string): void {
  reply.setCookie(sessionCookieName, token, {
    httpOnly: true,
    sameSite: 'lax',
    secure: request.protocol === 'https',
    path: '/',
    maxAge: sessionDays * 24 * 3600,
  });
}

export function clearSessionCookie(reply: FastifyReply): void {
  reply.clearCookie(sessionCookieName, { path: '/' });
}

export function requireMember(request: FastifyRequest): UserRow {
  if (!request.member) throw new AuthenticationRequiredError();
  return request.member;
}

export function requestContext(request: FastifyRequest): RequestContext {
  return {
    site: request.site,
    locale: request.locale,
    baseUrl: `${request.protocol}://${request.host}`,
    country: selectedCountry(request.site, request.clientCountry),
    userAgent: request.headers['user-agent'] ?? null,
  };
}
