import type { FastifyRequest } from 'fastify';
import { securityEndpoints } from '#contract/endpoints/security.ts';
import { passkeyLoginBodySchema, registerPasskeyBodySchema } from '#contract/security.ts';
import { routeOf } from '#server/lib/endpoint-route.ts';
import { ValidationFailedError } from '#server/lib/errors.ts';
import type { ZodApp } from '#server/lib/zod-app.ts';
import { deviceLabel } from '#server/modules/accounts/accounts.service.ts';
import {
  requireMember,
  sessionCookieName,
  setSessionCookie,
  signInContext,
} from '#server/modules/accounts/sessions.ts';
import { siteOrigin } from '#server/modules/sites/site-origin.ts';
import type { RelyingParty } from './security.service.ts';

const perIp = (max: number, timeWindow: string) => ({ rateLimit: { max, timeWindow } });

/**
 * The relying party of a request: the site it resolved to (a Host that is no configured site gets
 * the default site, whose origin then does not match the browser's), never the Host header itself.
 */
export function relyingParty(request: FastifyRequest): RelyingParty {
  const origin = siteOrigin(request.site, request.server.deps.config);
  return { id: new URL(origin).hostname, origin, name: request.site.name, siteId: request.site.id };
}

/** A member's signed-in devices and passkeys, and signing in with a passkey. */
export async function securityRoutes(app: ZodApp): Promise<void> {
  const { accounts, security } = app.deps;

  routeOf(app, securityEndpoints.getSessions, {}, async (request) => ({
    sessions: await accounts.listSessions(requireMember(request), request.cookies[sessionCookieName]),
  }));

  routeOf(app, securityEndpoints.deleteSessions, { config: perIp(30, '15 minutes') }, async (request) => {
    await accounts.endSessions(requireMember(request), request.cookies[sessionCookieName], request.body);
    return { ok: true as const };
  });

  routeOf(app, securityEndpoints.getEndSession, { config: perIp(20, '1 hour') }, async (request, reply) => {
    const ended = request.query.token ? await accounts.endSessionByLink(request.query.token) : false;
    return reply.redirect(`/login?session_ended=${ended ? 1 : 0}`, 302);
  });

  routeOf(app, securityEndpoints.getPasskeys, {}, async (request) => ({
    passkeys: await security.list({ kind: 'member', id: requireMember(request).id }),
  }));

  routeOf(
    app,
    securityEndpoints.postPasskeys,
    { config: perIp(30, '15 minutes') },
    async (request, reply) => {
      const member = requireMember(request);
      const owner = { kind: 'member' as const, id: member.id };
      reply.status(201);
      if (request.query.step === 'options') {
        const name = member.email ?? `member-${member.id}`;
        return {
          options: await security.registrationOptions(owner, relyingParty(request), {
            name,
            displayName: name,
          }),
        };
      }
      const body = registerPasskeyBodySchema.safeParse(request.body);
      if (!body.success) throw new ValidationFailedError({ credential: 'required' });
      const name = body.data.name || deviceLabel(request.headers['user-agent'] ?? null) || 'Passkey';
      return { passkey: await security.register(owner, relyingParty(request), body.data.credential, name) };
    },
  );

  routeOf(app, securityEndpoints.deletePasskeys, {}, async (request) => {
    await security.remove({ kind: 'member', id: requireMember(request).id }, request.body.id);
    return { ok: true as const };
  });

  routeOf(
    app,
    securityEndpoints.postPasskeyLogin,
    { config: perIp(20, '15 minutes') },
    async (request, reply) => {
      if (request.query.step === 'options') {
        return { options: await security.loginOptions('member', relyingParty(request)) };
      }
      const body = passkeyLoginBodySchema.safeParse(request.body);
      if (!body.success) throw new ValidationFailedError({ credential: 'required' });
      const userId = await security.verifyLogin('member', relyingParty(request), body.data.credential);
      const { user, sessionToken } = await accounts.loginWithPasskey(
        signInContext(request, reply),
        userId,
        request.cookies[sessionCookieName],
      );
      setSessionCookie(request, reply, sessionToken);
      return { user: await accounts.toUser(user, request.site) };
    },
  );
}
