import { AsyncLocalStorage } from 'node:async_hooks';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { UserRow } from '#server/db/schema/members.ts';
import { AuthenticationRequiredError } from '#server/lib/errors.ts';
import { announcePublicPagesChanged } from '#server/lib/public-pages.ts';
import { newToken } from '#server/lib/tokens.ts';
import { rememberedSessionProfile } from '#server/modules/profiles/profiles.service.ts';
import { siteOrigin } from '#server/modules/sites/site-origin.ts';
import { selectedCountry } from '#server/modules/sites/sites.service.ts';
import { type RequestContext, sessionDays } from './accounts.service.ts';

export const sessionCookieName = 'sid';

declare module 'fastify' {
  interface FastifyRequest {
    /** The logged-in member, or null. */
    member: UserRow | null;
    /** The call kept the member's cached sessions current itself (`keepSessionWithCredits`). */
    sessionKept: boolean;
  }
}

/**
 * A page request's resolved session, lent to the API calls its loaders make in-process
 * (docs/decisions/002): a page looks its session up once, not once per call. Only the in-process
 * caller (server/web/ssr.ts) opens this scope, so no outside request can reach it; the token must
 * match, and a call that may change the session or the member (anything but GET) ends the loan.
 */
export type SharedSession = { token: string | undefined; member: UserRow | null; valid: boolean };
const sharedSessions = new AsyncLocalStorage<SharedSession>();

export function shareSession(request: FastifyRequest): SharedSession {
  return { token: request.cookies[sessionCookieName], member: request.member, valid: true };
}

/** Runs one in-process call with the page's session; a non-GET call resolves its own and ends the loan. */
export async function withSharedSession<T>(
  shared: SharedSession,
  method: string,
  run: () => Promise<T>,
): Promise<T> {
  if (method !== 'GET') shared.valid = false;
  if (!shared.valid) return run();
  // Awaited inside the scope: inject() answers a lazy chain that starts on `then`.
  return sharedSessions.run(shared, async () => await run());
}

/** Resolves the session cookie once per request, for every route. */
export function registerSessions(app: FastifyInstance): void {
  app.decorateRequest('member', null);
  app.decorateRequest('sessionKept', false);
  app.addHook('onRequest', async (request) => {
    const token = request.cookies[sessionCookieName];
    if (!token || token.length > 100) return;
    const shared = sharedSessions.getStore();
    if (shared?.valid && shared.token === token) {
      request.member = shared.member;
      return;
    }
    request.member = await app.deps.accounts.resolveSession(token);
  });
  // A member's own write (a send, a purchase, a profile edit, logout…) may change the row a cached
  // session holds: it is dropped on every instance before the answer leaves (decision 014).
  app.addHook('onSend', async (request) => {
    if (request.member && request.method !== 'GET' && request.method !== 'HEAD') {
      // Here at once (the announcement reaches this instance over Redis a moment later).
      app.deps.chatLists.dropUser(request.member.id);
      // Their next reads come from the primary for a while, on every instance (decision 056).
      await app.deps.reads.memberWrote(request.member.id);
      if (!request.sessionKept) await app.deps.accounts.memberChanged(request.member.id);
      // A public profile (or one that becomes public) may headline the visitors' pages.
      const body = request.body;
      const namesPublicProfile = typeof body === 'object' && body !== null && 'public_profile' in body;
      if (namesPublicProfile || rememberedSessionProfile(request.member)?.publicProfile) {
        await announcePublicPagesChanged(app.deps.bus);
      }
    }
  });
}

/**
 * For a call whose only change to the member's row is their balance (a message sent): the cached
 * sessions get the new balance on every instance instead of being dropped after the answer, so the
 * next request needs no lookup (docs/decisions/028).
 */
export async function keepSessionWithCredits(
  app: FastifyInstance,
  request: FastifyRequest,
  credits: number,
): Promise<void> {
  if (!request.member) return;
  if (credits !== request.member.credits) await app.deps.accounts.creditsChanged(request.member.id, credits);
  request.sessionKept = true;
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
    // Links in mails come from the site's configured origin, never from Host / X-Forwarded-Host.
    baseUrl: siteOrigin(request.site, request.server.deps.config),
    country: selectedCountry(request.site, request.clientCountry),
    userAgent: request.headers['user-agent'] ?? null,
    clientCountry: request.clientCountry,
    deviceToken: request.cookies[deviceCookieName] ?? null,
  };
}

/** The long-lived cookie that tells a device the member used before from a new one. */
export const deviceCookieName = 'did';

/**
 * The request's context for a sign-in, with a device cookie made (and set on the answer) when the
 * browser has none: a device without one is new, and keeps the one it gets.
 */
export function signInContext(request: FastifyRequest, reply: FastifyReply): RequestContext {
  const ctx = requestContext(request);
  const known = ctx.deviceToken && /^[A-Za-z0-9_-]{20,100}$/.test(ctx.deviceToken) ? ctx.deviceToken : null;
  if (known) return ctx;
  const deviceToken = newToken();
  reply.setCookie(deviceCookieName, deviceToken, {
    httpOnly: true,
    sameSite: 'lax',
    secure: request.protocol === 'https',
    path: '/',
    maxAge: 400 * 24 * 3600,
  });
  return { ...ctx, deviceToken };
}
