import { notificationsEndpoints } from '#contract/endpoints/notifications.ts';
import type { UserRow } from '#server/db/schema/members.ts';
import { routeOf } from '#server/lib/endpoint-route.ts';
import { AppError } from '#server/lib/errors.ts';
import type { ZodApp } from '#server/lib/zod-app.ts';
import { requireMember } from '#server/modules/accounts/sessions.ts';
import type { Preferences } from './notifications.repository.ts';

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

  routeOf(app, notificationsEndpoints.getNotifications, {}, async (request) => {
    const member = requireMember(request);
    return toSettings(await notifications.preferences(member), member);
  });

  routeOf(app, notificationsEndpoints.putNotifications, {}, async (request) => {
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
  });

  routeOf(app, notificationsEndpoints.getUnsubscribe, {}, async (request, reply) =>
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
    routeOf(
      oneClick,
      notificationsEndpoints.postUnsubscribe,
      { config: { rateLimit: { max: 30, timeWindow: '1 minute' } } },
      async (request) => {
        if (!(await notifications.unsubscribe(request.query.token))) throw new AppError(404, 'link_invalid');
        return { ok: true as const };
      },
    );
  });

  routeOf(app, notificationsEndpoints.postMailEvents, {}, async (request) => {
    const secret = app.deps.config.MAIL_WEBHOOK_SECRET;
    if (!secret || request.headers['x-webhook-secret'] !== secret) throw new AppError(403, 'csrf_failed');
    return {
      ok: true as const,
      members: await notifications.mailEvent(request.body.email, request.body.type),
    };
  });
}
