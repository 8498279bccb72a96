import type { FastifyReply, FastifyRequest } from 'fastify';
import { loginBodySchema } from '#contract/accounts.ts';
import { accountsEndpoints } from '#contract/endpoints/accounts.ts';
import { pushSubscriptionSchema } from '#contract/notifications.ts';
import type { TrafficSource } from '#server/db/schema/members.ts';
import { routeOf } from '#server/lib/endpoint-route.ts';
import { AppError, CsrfError, ValidationFailedError } from '#server/lib/errors.ts';
import { isSameOriginRequest } from '#server/lib/same-origin.ts';
import type { ZodApp } from '#server/lib/zod-app.ts';
import { parseTrackingCookie } from '#server/modules/tracking/tracking.service.ts';
import { LinkInvalidError } from './accounts.errors.ts';
import {
  clearSessionCookie,
  requestContext,
  requireMember,
  sessionCookieName,
  setSessionCookie,
  signInContext,
} from './sessions.ts';

const perIp = (max: number, timeWindow: string) => ({ rateLimit: { max, timeWindow } });

export async function accountsRoutes(app: ZodApp): Promise<void> {
  const accounts = app.deps.accounts;

  routeOf(app, accountsEndpoints.getUser, {}, async (request) => ({
    user: request.member ? await accounts.toUser(request.member, request.site) : null,
  }));

  routeOf(app, accountsEndpoints.postUser, { config: perIp(20, '15 minutes') }, async (request, reply) => {
    if (request.query.push !== undefined) {
      const subscription = pushSubscriptionSchema.safeParse(request.body);
      if (!subscription.success) throw new ValidationFailedError({ endpoint: 'invalid' });
      await app.deps.notifications.registerPush(requireMember(request), subscription.data);
      return { ok: true as const };
    }
    const credentials = loginBodySchema.safeParse(request.body);
    if (!credentials.success) throw new ValidationFailedError({ email: 'required' });
    const { user, sessionToken } = await accounts.login(
      signInContext(request, reply),
      credentials.data.email,
      credentials.data.password,
      request.cookies[sessionCookieName],
    );
    setSessionCookie(request, reply, sessionToken);
    return { user: await accounts.toUser(user, request.site) };
  });

  routeOf(app, accountsEndpoints.putUser, {}, async (request) => {
    const user = await accounts.setLanguage(requireMember(request), request.body.language);
    return { user: await accounts.toUser(user, request.site) };
  });

  routeOf(app, accountsEndpoints.deleteUser, { config: perIp(10, '1 hour') }, async (request, reply) => {
    const user = await accounts.requestDeletion(
      requestContext(request),
      requireMember(request),
      request.body.password,
    );
    clearSessionCookie(reply);
    return { user: await accounts.toUser(user, request.site) };
  });

  const logout = async (request: FastifyRequest, reply: FastifyReply) => {
    const token = request.cookies[sessionCookieName];
    if (token) await accounts.logout(token);
    clearSessionCookie(reply);
    return { ok: true as const };
  };
  // The UI logs out with POST (under the CSRF rule of every cookie-carrying change).
  routeOf(app, accountsEndpoints.postLogout, {}, logout);
  // GET as the contract names it, but only from this site's own pages: a link or image on another
  // site must not log a member out.
  routeOf(app, accountsEndpoints.getLogout, {}, async (request, reply) => {
    if (!isSameOriginRequest(request)) throw new CsrfError();
    return logout(request, reply);
  });

  routeOf(app, accountsEndpoints.postSignup, { config: perIp(10, '1 hour') }, async (request, reply) => {
    const { user, sessionToken } = await accounts.signup(signInContext(request, reply), {
      ...request.body,
      tracking: trackingOfSignup(request.body.tracking, request.cookies.tracking),
    });
    setSessionCookie(request, reply, sessionToken);
    // Signed up from a member's landing page: the first message goes to that member.
    if (request.body.profile && request.body.signup_message) {
      await app.deps.chats
        .send(user, request.site, { profile: request.body.profile, text: request.body.signup_message })
        .catch((error: unknown) => {
          // A refusal (the profile is gone, no credits for it) is an answer: noted, the signup stands.
          if (error instanceof AppError && error.status < 500) {
            request.log.info({ err: error }, 'signup message not sent');
          } else app.deps.caught.reportCaught('accounts.signup-message', error, 'error');
        });
    }
    reply.status(201);
    return { user: await accounts.toUser((await accounts.reload(user.id)) ?? user, request.site) };
  });

  routeOf(app, accountsEndpoints.postCompleteSignup, {}, async (request) => {
    const member = requireMember(request);
    await accounts.completeSignup(member, request.body);
    return { user: await accounts.toUser(member, request.site) };
  });

  routeOf(app, accountsEndpoints.getActivate, {}, async (request, reply) => {
    const ok = request.query.token ? await accounts.activate(request.query.token) : false;
    return reply.redirect(ok ? '/activate/done' : '/activate/error', 302);
  });

  routeOf(
    app,
    accountsEndpoints.postActivationMail,
    {
      config: {
        rateLimit: {
          max: 3,
          timeWindow: '1 hour',
          keyGenerator: (request) => `activation:${request.member?.id ?? request.ip}`,
        },
      },
    },
    async (request) => {
      await accounts.resendActivation(requestContext(request), requireMember(request));
      return { ok: true as const };
    },
  );

  routeOf(app, accountsEndpoints.postPasswordReset, { config: perIp(10, '1 hour') }, async (request) => {
    await accounts.requestPasswordReset(requestContext(request), request.body.email);
    return { ok: true as const };
  });

  routeOf(
    app,
    accountsEndpoints.putPasswordReset,
    { config: perIp(20, '1 hour') },
    async (request, reply) => {
      const { user, sessionToken } = await accounts.resetPassword(
        requestContext(request),
        request.body.token,
        request.body.password,
        request.body.password_confirmation,
      );
      setSessionCookie(request, reply, sessionToken);
      return { user: await accounts.toUser(user, request.site) };
    },
  );

  routeOf(app, accountsEndpoints.putPassword, { config: perIp(10, '15 minutes') }, async (request) => {
    await accounts.changePassword(
      requireMember(request),
      request.cookies[sessionCookieName] ?? '',
      request.body.old_password,
      request.body.password,
      request.body.password_confirmation,
    );
    return { ok: true as const };
  });

  routeOf(app, accountsEndpoints.postMailChange, { config: perIp(10, '1 hour') }, async (request) => {
    await accounts.requestMailChange(
      requestContext(request),
      requireMember(request),
      request.body.email,
      request.body.password,
    );
    return { ok: true as const };
  });

  routeOf(app, accountsEndpoints.putMailChange, {}, async (request) => {
    await accounts.confirmMailChange(request.body.token);
    return { ok: true as const };
  });

  routeOf(app, accountsEndpoints.getReactivate, {}, async (request, reply) => {
    try {
      const { sessionToken } = await accounts.reactivateByToken(
        request.query.token ?? '',
        request.headers['user-agent'] ?? null,
      );
      setSessionCookie(request, reply, sessionToken);
      return reply.redirect('/members?reactivated=1', 302);
    } catch (error) {
      // An unknown, used or expired link is the page's answer; anything else is also reported.
      if (!(error instanceof LinkInvalidError)) {
        app.deps.caught.reportCaught('accounts.reactivate', error, 'error');
      }
      return reply.redirect('/activate/error?reason=reactivation', 302);
    }
  });

  routeOf(
    app,
    accountsEndpoints.postReactivate,
    { config: perIp(20, '15 minutes') },
    async (request, reply) => {
      const { user, sessionToken } = await accounts.reactivateByLogin(
        requestContext(request),
        request.body.email,
        request.body.password,
      );
      setSessionCookie(request, reply, sessionToken);
      const fresh = (await accounts.reload(user.id)) ?? user;
      return { user: await accounts.toUser(fresh, request.site) };
    },
  );

  routeOf(
    app,
    accountsEndpoints.postPageHidden,
    { config: perIp(120, '1 minute') },
    async (request, reply) => {
      if (request.query.lb !== undefined) {
        request.log.info(
          { site: request.site.domain, member: request.member?.id ?? null, referer: request.headers.referer },
          'page bounce',
        );
      }
      if (request.member) await accounts.touchActivity(request.member.id);
      return reply.status(204).send();
    },
  );
}

/**
 * The tracking data sent with the signup, else the landing click's cookie; the cookie's click id
 * and lander go with sent data of the same network (server/modules/tracking).
 */
function trackingOfSignup(sent: TrafficSource | undefined, cookie: string | undefined) {
  const click = parseTrackingCookie(cookie) ?? undefined;
  if (!sent) return click;
  if (!click?.click_id || (click.network ?? null) !== (sent.network ?? null)) return sent;
  return { ...sent, click_id: click.click_id, lander: click.lander, slug: click.slug };
}
