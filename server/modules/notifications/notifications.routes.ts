import { errorBodySchema, okSchema } from '#contract/common.ts';
import { mailEventBodySchema, mailEventResponseSchema, unsubscribeQuerySchema } from '#contract/endpoints.ts';
import { notificationSettingsSchema, notificationSettingsUpdateSchema } from '#contract/notifications.ts';
import type { UserRow } from '#server/db/schema/members.ts';
import { AppError } from '#server/lib/errors.ts';
import type { ZodApp } from '#server/lib/zod-app.ts';
import { requireMember } from '#server/modules/accounts/sessions.ts';
import type { Preferences } from './notifications.repository.ts';

const errors = { 403: errorBodySchema, 404: errorBodySchema, 422: errorBodySchema };

function toSettings(preferences: Preferences, user: UserRow) {
  return {
    email: {
      messages: preferences.emailMessages,
      likes: preferences.emailLikes,
      matches: preferences.emailMatches,
      news: preferences.emailNews,
    },
    push: {
      messages: preferences.pushMessages,
      likes: preferences.pushLikes,
      matches: preferences.pushMatches,
      news: preferences.pushNews,
    },
    notifications_disabled: user.notificationsDisabled,
  };
}

export async function notificationsRoutes(app: ZodApp): Promise<void> {
  const notifications = app.deps.notifications;

  app.get(
    '/api/notifications.php',
    {
      schema: {
        tags: ['notifications'],
        summary: 'Mail and push settings per type, and why mails are off if they are',
        response: { 200: notificationSettingsSchema, ...errors },
      },
    },
    async (request) => {
      const member = requireMember(request);
      return toSettings(await notifications.preferences(member), member);
    },
  );

  app.put(
    '/api/notifications.php',
    {
      schema: {
        tags: ['notifications'],
        summary: 'Changes settings; enable_email turns mails back on',
        body: notificationSettingsUpdateSchema,
        response: { 200: notificationSettingsSchema, ...errors },
      },
    },
    async (request) => {
      const member = requireMember(request);
      const { email = {}, push = {}, enable_email } = request.body;
      const saved = await notifications.updatePreferences(member, {
        ...(email.messages !== undefined ? { emailMessages: email.messages } : {}),
        ...(email.likes !== undefined ? { emailLikes: email.likes } : {}),
        ...(email.matches !== undefined ? { emailMatches: email.matches } : {}),
        ...(email.news !== undefined ? { emailNews: email.news } : {}),
        ...(push.messages !== undefined ? { pushMessages: push.messages } : {}),
        ...(push.likes !== undefined ? { pushLikes: push.likes } : {}),
        ...(push.matches !== undefined ? { pushMatches: push.matches } : {}),
        ...(push.news !== undefined ? { pushNews: push.news } : {}),
      });
      if (enable_email) await notifications.reenableEmail(member);
      return toSettings(saved, enable_email ? { ...member, notificationsDisabled: [] } : member);
    },
  );

  app.get(
    '/api/unsubscribe.php',
    {
      schema: {
        tags: ['notifications'],
        summary: 'The unsubscribe link of a mail: shows the confirmation page',
        querystring: unsubscribeQuerySchema,
      },
    },
    async (request, reply) =>
      reply.redirect(`/unsubscribe?token=${encodeURIComponent(request.query.token)}`, 302),
  );

  await app.register(async (instance) => {
    const oneClick = instance as unknown as ZodApp;
    // Mail clients send RFC 8058 one-click unsubscribes as a form: List-Unsubscribe=One-Click.
    oneClick.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string' },
      (_request, body, done) => {
        done(null, Object.fromEntries(new URLSearchParams(String(body))));
      },
    );
    oneClick.post(
      '/api/unsubscribe.php',
      {
        config: { rateLimit: { max: 30, timeWindow: '1 minute' } },
        schema: {
          tags: ['notifications'],
          summary: 'One-click unsubscribe (RFC 8058), no login needed',
          querystring: unsubscribeQuerySchema,
          response: { 200: okSchema, 404: errorBodySchema },
        },
      },
      async (request) => {
        if (!(await notifications.unsubscribe(request.query.token))) throw new AppError(404, 'link_invalid');
        return { ok: true as const };
      },
    );
  });

  app.post(
    '/api/mail-events.php',
    {
      schema: {
        tags: ['notifications'],
        summary: "The mail provider's bounce and complaint webhook (header x-webhook-secret)",
        body: mailEventBodySchema,
        response: { 200: mailEventResponseSchema, 403: errorBodySchema },
      },
    },
    async (request) => {
      const secret = app.deps.config.MAIL_WEBHOOK_SECRET;
      if (!secret || request.headers['x-webhook-secret'] !== secret) throw new AppError(403, 'csrf_failed');
      return {
        ok: true as const,
        members: await notifications.mailEvent(request.body.email, request.body.type),
      };
    },
  );
}
