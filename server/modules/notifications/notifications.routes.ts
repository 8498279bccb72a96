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
      visitors: preferences.emailVisitors,
      unread: preferences.emailUnread,
      likes_digest: preferences.emailLikesDigest,
      news: preferences.emailNews,
    },
    push: {
      messages: preferences.pushMessages,
      likes: preferences.pushLikes,
      matches: preferences.pushMatches,
      visitors: preferences.pushVisitors,
      unread: preferences.pushUnread,
      likes_digest: preferences.pushLikesDigest,
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
      ...(email.visitors !== undefined ? { emailVisitors: email.visitors } : {}),
      ...(email.unread !== undefined ? { emailUnread: email.unread } : {}),
      ...(email.likes_digest !== undefined ? { emailLikesDigest: email.likes_digest } : {}),
      ...(email.news !== undefined ? { emailNews: email.news } : {}),
      ...(push.messages !== undefined ? { pushMessages: push.messages } : {}),
      ...(push.likes !== undefined ? { pushLikes: push.likes } : {}),
      ...(push.matches !== undefined ? { pushMatches: push.matches } : {}),
      ...(push.visitors !== undefined ? { pushVisitors: push.visitors } : {}),
      ...(push.unread !== undefined ? { pushUnread: push.unread } : {}),
      ...(push.likes_digest !== undefined ? { pushLikesDigest: push.likes_digest } : {}),
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
        const stopped = await notifications.unsubscribe(request.query.token);
        if (!stopped) throw new AppError(404, 'link_invalid');
        return { ok: true as const, stopped };
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
