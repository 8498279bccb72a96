import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  changePasswordBodySchema,
  completeSignupBodySchema,
  deleteAccountBodySchema,
  languageBodySchema,
  loginBodySchema,
  mailChangeRequestSchema,
  passwordResetBodySchema,
  passwordResetRequestSchema,
  reactivateBodySchema,
  signupBodySchema,
  tokenBodySchema,
  tokenQuerySchema,
} from '#contract/accounts.ts';
import { errorBodySchema, okSchema } from '#contract/common.ts';
import { pageHiddenQuerySchema, pushQuerySchema, userBodySchema } from '#contract/endpoints.ts';
import { pushSubscriptionSchema } from '#contract/notifications.ts';
import { userResponseSchema } from '#contract/users.ts';
import type { TrafficSource } from '#server/db/schema/members.ts';
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
} from './sessions.ts';

const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
  409: errorBodySchema,
  410: errorBodySchema,
  422: errorBodySchema,
  429: errorBodySchema,
};
const perIp = (max: number, timeWindow: string) => ({ rateLimit: { max, timeWindow } });

export async function accountsRoutes(app: ZodApp): Promise<void> {
  const accounts = app.deps.accounts;

  app.get(
    '/api/user.php',
    {
      schema: {
        tags: ['accounts'],
        summary: 'The logged-in member, or null',
        response: { 200: userResponseSchema },
      },
    },
    async (request) => ({
      user: request.member ? await accounts.toUser(request.member, request.site) : null,
    }),
  );

  app.post(
    '/api/user.php',
    {
      config: perIp(20, '15 minutes'),
      schema: {
        tags: ['accounts'],
        summary:
          'Log in: sets the session cookie (401 login_failed; 429 account_locked with minutes). With ?push=1: registers a Web Push subscription',
        querystring: pushQuerySchema,
        body: z.union([loginBodySchema, pushSubscriptionSchema]),
        response: { 200: z.union([userBodySchema, okSchema]), ...errors },
      },
    },
    async (request, reply) => {
      if (request.query.push !== undefined) {
        const subscription = pushSubscriptionSchema.safeParse(request.body);
        if (!subscription.success) throw new ValidationFailedError({ endpoint: 'invalid' });
        await app.deps.notifications.registerPush(requireMember(request), subscription.data);
        return { ok: true as const };
      }
      const credentials = loginBodySchema.safeParse(request.body);
      if (!credentials.success) throw new ValidationFailedError({ email: 'required' });
      const { user, sessionToken } = await accounts.login(
        requestContext(request),
        credentials.data.email,
        credentials.data.password,
        request.cookies[sessionCookieName],
      );
      setSessionCookie(request, reply, sessionToken);
      return { user: await accounts.toUser(user, request.site) };
    },
  );

  app.put(
    '/api/user.php',
    {
      schema: {
        tags: ['accounts'],
        summary: "Sets the member's language (mails go out in it)",
        body: languageBodySchema,
        response: { 200: userBodySchema, ...errors },
      },
    },
    async (request) => {
      const user = await accounts.setLanguage(requireMember(request), request.body.language);
      return { user: await accounts.toUser(user, request.site) };
    },
  );

  app.delete(
    '/api/user.php',
    {
      config: perIp(10, '1 hour'),
      schema: {
        tags: ['accounts'],
        summary: 'Deletes the account after 14 days; a reactivation mail is sent and the session ends',
        body: deleteAccountBodySchema,
        response: { 200: userBodySchema, ...errors },
      },
    },
    async (request, reply) => {
      const user = await accounts.requestDeletion(
        requestContext(request),
        requireMember(request),
        request.body.password,
      );
      clearSessionCookie(reply);
      return { user: await accounts.toUser(user, request.site) };
    },
  );

  const logout = async (request: FastifyRequest, reply: FastifyReply) => {
    const token = request.cookies[sessionCookieName];
    if (token) await accounts.logout(token);
    clearSessionCookie(reply);
    return { ok: true as const };
  };
  // The UI logs out with POST (under the CSRF rule of every cookie-carrying change).
  app.post(
    '/api/logout.php',
    {
      schema: {
        tags: ['accounts'],
        summary: 'Ends the session',
        response: { 200: okSchema, 403: errorBodySchema },
      },
    },
    logout,
  );
  // GET as the contract names it, but only from this site's own pages: a link or image on another
  // site must not log a member out.
  app.get(
    '/api/logout.php',
    {
      schema: {
        tags: ['accounts'],
        summary: 'Ends the session (same-origin requests only; prefer POST)',
        response: { 200: okSchema, 403: errorBodySchema },
      },
    },
    async (request, reply) => {
      if (!isSameOriginRequest(request)) throw new CsrfError();
      return logout(request, reply);
    },
  );

  app.post(
    '/api/signup.php',
    {
      config: perIp(10, '1 hour'),
      schema: {
        tags: ['accounts'],
        summary: 'Creates an account, logs in and sends the activation mail',
        body: signupBodySchema,
        response: { 201: userBodySchema, ...errors },
      },
    },
    async (request, reply) => {
      const { user, sessionToken } = await accounts.signup(requestContext(request), {
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
    },
  );

  app.post(
    '/api/complete-signup.php',
    {
      schema: {
        tags: ['accounts'],
        summary: 'The second signup step: gender, whom the member seeks, region',
        body: completeSignupBodySchema,
        response: { 200: userBodySchema, ...errors },
      },
    },
    async (request) => {
      const member = requireMember(request);
      await accounts.completeSignup(member, request.body);
      return { user: await accounts.toUser(member, request.site) };
    },
  );

  app.get(
    '/api/activate.php',
    {
      schema: {
        tags: ['accounts'],
        summary: 'The activation link: redirects to /activate/done or /activate/error',
        querystring: tokenQuerySchema,
      },
    },
    async (request, reply) => {
      const ok = request.query.token ? await accounts.activate(request.query.token) : false;
      return reply.redirect(ok ? '/activate/done' : '/activate/error', 302);
    },
  );

  app.post(
    '/api/activation-mail.php',
    {
      config: {
        rateLimit: {
          max: 3,
          timeWindow: '1 hour',
          keyGenerator: (request) => `activation:${request.member?.id ?? request.ip}`,
        },
      },
      schema: {
        tags: ['accounts'],
        summary: 'Sends the activation link again',
        response: { 200: okSchema, ...errors },
      },
    },
    async (request) => {
      await accounts.resendActivation(requestContext(request), requireMember(request));
      return { ok: true as const };
    },
  );

  app.post(
    '/api/password-reset.php',
    {
      config: perIp(10, '1 hour'),
      schema: {
        tags: ['accounts'],
        summary: 'Mails a password reset link (at most 3 a day). 404 email_not_found; 429 reset_limit',
        body: passwordResetRequestSchema,
        response: { 200: okSchema, ...errors },
      },
    },
    async (request) => {
      await accounts.requestPasswordReset(requestContext(request), request.body.email);
      return { ok: true as const };
    },
  );

  app.put(
    '/api/password-reset.php',
    {
      config: perIp(20, '1 hour'),
      schema: {
        tags: ['accounts'],
        summary: 'Sets a new password with a reset link; ends other sessions and logs in. 410 link_invalid',
        body: passwordResetBodySchema,
        response: { 200: userBodySchema, ...errors },
      },
    },
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

  app.put(
    '/api/password.php',
    {
      config: perIp(10, '15 minutes'),
      schema: {
        tags: ['accounts'],
        summary: 'Changes the password; the old one is checked and other sessions end',
        body: changePasswordBodySchema,
        response: { 200: okSchema, ...errors },
      },
    },
    async (request) => {
      await accounts.changePassword(
        requireMember(request),
        request.cookies[sessionCookieName] ?? '',
        request.body.old_password,
        request.body.password,
        request.body.password_confirmation,
      );
      return { ok: true as const };
    },
  );

  app.post(
    '/api/mail-change.php',
    {
      config: perIp(10, '1 hour'),
      schema: {
        tags: ['accounts'],
        summary: 'Mails a confirmation link to a new address (the old one gets a notice)',
        body: mailChangeRequestSchema,
        response: { 200: okSchema, ...errors },
      },
    },
    async (request) => {
      await accounts.requestMailChange(
        requestContext(request),
        requireMember(request),
        request.body.email,
        request.body.password,
      );
      return { ok: true as const };
    },
  );

  app.put(
    '/api/mail-change.php',
    {
      schema: {
        tags: ['accounts'],
        summary: 'Confirms the new address with the link from the mail. 410 link_invalid',
        body: tokenBodySchema,
        response: { 200: okSchema, ...errors },
      },
    },
    async (request) => {
      await accounts.confirmMailChange(request.body.token);
      return { ok: true as const };
    },
  );

  app.get(
    '/api/reactivate.php',
    {
      schema: {
        tags: ['accounts'],
        summary: 'The link of the deletion mail (14 days): keeps the account, logs in, redirects',
        querystring: tokenQuerySchema,
      },
    },
    async (request, reply) => {
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
    },
  );

  app.post(
    '/api/reactivate.php',
    {
      config: perIp(20, '15 minutes'),
      schema: {
        tags: ['accounts'],
        summary: 'Keeps an account pending deletion by logging in with it',
        body: reactivateBodySchema,
        response: { 200: userBodySchema, ...errors },
      },
    },
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

  app.post(
    '/api/page-hidden.php',
    {
      config: perIp(120, '1 minute'),
      schema: {
        tags: ['accounts'],
        summary: 'Beacon when a page is hidden (empty body); lb=1 logs a page bounce',
        querystring: pageHiddenQuerySchema,
      },
    },
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
