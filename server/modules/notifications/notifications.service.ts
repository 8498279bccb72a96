import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import https from 'node:https';
import { z } from 'zod';
import { isLocale, type Locale } from '#contract/locales.ts';
import type { Config } from '#server/config.ts';
import type { Database } from '#server/db/client.ts';
import type { MailCondition } from '#server/db/schema/mail.ts';
import type { UserRow } from '#server/db/schema/members.ts';
import { type NudgeKind, nudgeKinds } from '#server/db/schema/nudges.ts';
import type { SiteRow } from '#server/db/schema/sites.ts';
import type { Clock } from '#server/lib/clock.ts';
import { ValidationFailedError } from '#server/lib/errors.ts';
import type { Translator } from '#server/lib/i18n.ts';
import { outgoingUrlProblem, publicOnlyLookup } from '#server/lib/public-address.ts';
import type { Secrets } from '#server/lib/secrets.ts';
import { findUserById } from '#server/modules/accounts/accounts.service.ts';
import { defineJob, type JobRunner } from '#server/modules/jobs/job-runner.ts';
import type { MailQueue } from '#server/modules/mail/mail.service.ts';
import { mailSiteOf, renderMail } from '#server/modules/mail/mail-templates.ts';
import { siteOrigin } from '#server/modules/sites/site-origin.ts';
import * as repo from './notifications.repository.ts';
import { localPresenceStore, Presence } from './presence.ts';

export type NotificationType = 'messages' | 'likes' | 'matches' | 'news';
export type PushPayload = { title: string; body: string; url: string; tag: string };

/** One push to one device: the member, the subscription, what it shows, and the VAPID subject (the site's contact). */
const pushSend = defineJob(
  'push.send',
  z.object({
    user: z.number().int(),
    subscription: z.number().int(),
    payload: z.object({ title: z.string(), body: z.string(), url: z.string(), tag: z.string() }),
    subject: z.string(),
  }),
);
type PushJob = z.infer<typeof pushSend.payload>;
export type PushSender = (
  subscription: { endpoint: string; keys: { p256dh: string; auth: string } },
  payload: string,
  options: { vapidDetails: { subject: string; publicKey: string; privateKey: string }; TTL: number },
) => Promise<unknown>;

/** Push services are public: a name that resolves to a private address is never connected to. */
let publicAgent: https.Agent | undefined;

/** web-push's sender, loaded with the first push (not at start). */
const sendWithWebPush: PushSender = async (subscription, payload, options) => {
  publicAgent ??= new https.Agent({ keepAlive: true, lookup: publicOnlyLookup });
  return (await import('web-push')).default.sendNotification(subscription, payload, {
    ...options,
    agent: publicAgent,
  });
};

/** How long a message mail waits, so a push that gets the message read makes the mail unneeded. */
export const messageMailDelayMs = 5 * 60_000;

const disabledReasons = ['unsubscribe', 'bounce', 'spam_complaint'] as const;

/** The nudges a mail's unsubscribe link can stop on its own (the nudges module sends them). */
export const unsubscribeScopes = nudgeKinds;
export type UnsubscribeScope = NudgeKind;

/** The mail switch of each nudge in the member's settings. */
export const nudgeEmailSwitch = {
  visitors: 'emailVisitors',
  unread: 'emailUnread',
  likes_digest: 'emailLikesDigest',
} as const satisfies Record<NudgeKind, keyof repo.Preferences>;

/** The push switch of each nudge. */
export const nudgePushSwitch = {
  visitors: 'pushVisitors',
  unread: 'pushUnread',
  likes_digest: 'pushLikesDigest',
} as const satisfies Record<NudgeKind, keyof repo.Preferences>;
export type DisabledReason = (typeof disabledReasons)[number];

export type PushFailure = {
  userId: number;
  subscriptionId: number;
  reason: 'gone' | 'error';
  status: number | null;
  error: string;
};

export class NotificationsService {
  /** Told about every failed push delivery (app.ts logs and counts them). */
  onPushFailure: ((failure: PushFailure) => void) | undefined;

  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly mail: MailQueue,
    private readonly translator: Translator,
    private readonly secrets: Secrets,
    /** Where mails link to (see siteOrigin); outside production push endpoints may be on loopback. */
    private readonly originConfig: Pick<Config, 'PUBLIC_URL' | 'PORT' | 'NODE_ENV'>,
    /** Runs each push as a job (`push.send`): sent at once, retried when the push service fails. */
    private readonly jobs: JobRunner,
    private readonly sendPushMessage: PushSender = sendWithWebPush,
    /** Who is online (no notifications for them): Redis or this process; see presence.ts. */
    readonly presence: Presence = new Presence(db, clock, localPresenceStore(clock)),
  ) {
    jobs.handle(pushSend, {
      maxAttempts: 3,
      retryDelayMs: (failed) => failed * 30_000,
      leaseMs: 60_000,
      run: (push, attempt) => this.deliverPush(push, attempt.key),
    });
  }

  /** The keys of the push jobs this instance delivered, until the push() that made them counts them. */
  private readonly delivered = new Set<string>();

  // ---- presence

  async markOnline(userId: number): Promise<void> {
    await this.presence.seen([userId]);
  }

  async markOffline(userId: number): Promise<void> {
    await this.presence.left(userId);
  }

  // ---- preferences

  async preferences(user: UserRow) {
    return repo.preferencesOf(this.db, user.id);
  }

  async updatePreferences(user: UserRow, patch: Partial<Omit<repo.Preferences, 'userId'>>) {
    const next = { ...(await repo.preferencesOf(this.db, user.id)), ...patch, userId: user.id };
    await repo.savePreferences(this.db, next);
    return next;
  }

  /** The member fixed the cause (new address, no longer spam): mails go out again. */
  async reenableEmail(user: UserRow): Promise<void> {
    await repo.setNotificationsDisabled(this.db, user.id, []);
  }

  // ---- unsubscribe and bounces

  private signature(userId: number, scope?: UnsubscribeScope): string {
    return createHmac('sha256', this.secrets.sessionSecret)
      .update(scope ? `unsubscribe:${userId}:${scope}` : `unsubscribe:${userId}`)
      .digest('base64url')
      .slice(0, 32);
  }

  /** The link's token: all notification mails, or with a scope only that nudge's mails. */
  unsubscribeToken(userId: number, scope?: UnsubscribeScope): string {
    return scope
      ? `${userId}.${scope}.${this.signature(userId, scope)}`
      : `${userId}.${this.signature(userId)}`;
  }

  /**
   * One click from a mail, without login (RFC 8058): what it stopped (`all` notification mails, or
   * one nudge's mails), or null for a token that is not ours.
   */
  async unsubscribe(token: string): Promise<'all' | UnsubscribeScope | null> {
    const parts = token.split('.');
    const [id, scopeOrSignature, scopedSignature] = parts;
    const userId = Number(id);
    const scope =
      parts.length === 3 ? unsubscribeScopes.find((name) => name === scopeOrSignature) : undefined;
    const signature = parts.length === 3 ? scopedSignature : scopeOrSignature;
    if (!Number.isInteger(userId) || !signature || parts.length > 3 || (parts.length === 3 && !scope))
      return null;
    const expected = Buffer.from(this.signature(userId, scope));
    const given = Buffer.from(signature);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
    if (!scope) {
      await this.disable(userId, 'unsubscribe');
      return 'all';
    }
    const user = await findUserById(this.db, userId);
    if (user) await this.updatePreferences(user, { [nudgeEmailSwitch[scope]]: false });
    return scope;
  }

  /** Whether the member has a device to push to. */
  async hasPushDevice(userId: number): Promise<boolean> {
    return (await repo.pushSubscriptionsOf(this.db, userId)).length > 0;
  }

  private async disable(userId: number, reason: DisabledReason): Promise<void> {
    const user = await findUserById(this.db, userId);
    if (!user) return;
    const reasons = new Set(user.notificationsDisabled);
    reasons.add(reason);
    await repo.setNotificationsDisabled(this.db, userId, [...reasons]);
  }

  /** The mail provider reports a bounce or a spam complaint for an address. */
  async mailEvent(email: string, kind: 'bounce' | 'complaint'): Promise<number> {
    const users = await repo.usersByEmail(this.db, email);
    for (const user of users) await this.disable(user.id, kind === 'bounce' ? 'bounce' : 'spam_complaint');
    return users.length;
  }

  // ---- sending

  private localeOf(user: UserRow): Locale {
    return isLocale(user.language) ? user.language : 'en';
  }

  private async send(
    user: UserRow,
    site: SiteRow,
    type: Exclude<NotificationType, 'news'>,
    content: { kind: 'newMessage' | 'newLike' | 'newMatch'; params: Record<string, string>; path: string },
    channels: { email: boolean; condition?: MailCondition } = { email: true },
    /** Read by the caller, which also found the member offline. */
    known?: { preferences: repo.Preferences; subscriptions: repo.PushSubscriptionTarget[] },
  ): Promise<void> {
    if (user.status === 'deleted' || user.status === 'pending_deletion') return;
    if (!known && (await this.presence.isOnline(user))) return;
    const preferences = known?.preferences ?? (await repo.preferencesOf(this.db, user.id));
    const origin = siteOrigin(site, this.originConfig);
    const locale = this.localeOf(user);
    const emailOn = {
      messages: preferences.emailMessages,
      likes: preferences.emailLikes,
      matches: preferences.emailMatches,
    }[type];
    const pushOn = {
      messages: preferences.pushMessages,
      likes: preferences.pushLikes,
      matches: preferences.pushMatches,
    }[type];
    if (channels.email && emailOn && user.email && user.notificationsDisabled.length === 0) {
      const unsubscribeUrl = `${origin}/api/unsubscribe.php?token=${this.unsubscribeToken(user.id)}`;
      const rendered = renderMail(this.translator, locale, mailSiteOf(site, origin, locale), {
        kind: content.kind,
        params: content.params,
        actionUrl: `${origin}${content.path}`,
        footerLinks: [
          { key: 'unsubscribe', url: unsubscribeUrl },
          { key: 'settings', url: `${origin}/notifications` },
        ],
      });
      await this.mail.enqueue(this.db, {
        to: user.email,
        kind: content.kind,
        ...rendered,
        headers: {
          'List-Unsubscribe': `<${unsubscribeUrl}>`,
          'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
        },
        // A message mail waits a few minutes: if the push (or a tab) got it read by then, no mail goes out.
        ...(channels.condition
          ? {
              condition: channels.condition,
              runAt: new Date(this.clock.now().getTime() + messageMailDelayMs),
            }
          : {}),
      });
    }
    if (pushOn) {
      await this.push(
        user.id,
        site,
        {
          title: this.translator.t(locale, `mail:${content.kind}.subject`, {
            site: site.name,
            ...content.params,
          }),
          body: this.translator.t(locale, `mail:${content.kind}.body`, {
            site: site.name,
            ...content.params,
          }),
          url: content.path,
          tag: content.kind,
        },
        known?.subscriptions,
      );
    }
  }

  /** A new message: a push each time, but at most one mail per conversation until the member has read it. */
  async onMessage(input: {
    recipient: UserRow;
    recipientProfileId: number;
    site: SiteRow;
    conversationId: number;
    messageId: number;
    senderName: string;
    preview: string;
  }): Promise<void> {
    if (await this.presence.isOnline(input.recipient)) return;
    // One statement: the mail claim, the preferences and the push subscriptions.
    const { claimed: mail, ...known } = await repo.messageNotificationContext(this.db, {
      userId: input.recipient.id,
      conversationId: input.conversationId,
      profileId: input.recipientProfileId,
      messageId: input.messageId,
    });
    await this.send(
      input.recipient,
      input.site,
      'messages',
      {
        kind: 'newMessage',
        params: {
          name: input.senderName,
          preview: input.preview.length > 140 ? `${input.preview.slice(0, 139)}…` : input.preview,
        },
        path: `/chats/${input.conversationId}`,
      },
      {
        email: mail,
        condition: {
          unread: {
            conversationId: input.conversationId,
            profileId: input.recipientProfileId,
            messageId: input.messageId,
          },
        },
      },
      known,
    );
  }

  async onLike(input: {
    recipient: UserRow;
    site: SiteRow;
    likerName: string;
    likerProfileId: number;
  }): Promise<void> {
    await this.send(input.recipient, input.site, 'likes', {
      kind: 'newLike',
      params: { name: input.likerName },
      path: `/likes/m/${input.likerProfileId}`,
    });
  }

  async onMatch(input: {
    recipient: UserRow;
    site: SiteRow;
    otherName: string;
    otherProfileId: number;
  }): Promise<void> {
    await this.send(input.recipient, input.site, 'matches', {
      kind: 'newMatch',
      params: { name: input.otherName },
      path: `/members/${input.otherProfileId}/chat`,
    });
  }

  // ---- push

  /**
   * Why the server may not send to a push endpoint, or null: the browser names it, so it gets the
   * check of every outgoing URL (HTTPS to a public address; tests and development push to loopback).
   */
  private pushEndpointProblem(endpoint: string): string | null {
    const allowPrivate = this.originConfig.NODE_ENV !== 'production';
    return outgoingUrlProblem(endpoint, { allowPrivate, httpsOnly: !allowPrivate });
  }

  async registerPush(
    user: UserRow,
    subscription: { endpoint: string; keys: { p256dh: string; auth: string } },
  ): Promise<void> {
    const problem = this.pushEndpointProblem(subscription.endpoint);
    if (problem) throw new ValidationFailedError({ endpoint: problem });
    await repo.upsertPushSubscription(this.db, {
      userId: user.id,
      endpoint: subscription.endpoint,
      p256dh: subscription.keys.p256dh,
      auth: subscription.keys.auth,
      createdAt: this.clock.now(),
    });
  }

  /**
   * Sends to every device of the member, each as a `push.send` job run at once on this instance: a
   * push service that fails is tried again later (twice), one that says the subscription is gone has
   * it removed. Returns how many devices got it now.
   */
  async push(
    userId: number,
    site: SiteRow,
    payload: PushPayload,
    known?: repo.PushSubscriptionTarget[],
  ): Promise<number> {
    const subscriptions = known ?? (await repo.pushSubscriptionsOf(this.db, userId));
    const keys: string[] = [];
    const now = this.clock.now();
    for (const subscription of subscriptions) {
      const problem = this.pushEndpointProblem(subscription.endpoint);
      if (problem) {
        // Stored before the check existed: it can never be delivered, so it goes.
        await repo.deletePushSubscription(this.db, subscription.id);
        this.onPushFailure?.({
          userId,
          subscriptionId: subscription.id,
          reason: 'error',
          status: null,
          error: `push endpoint refused: ${problem}`,
        });
        continue;
      }
      const key = `${subscription.id}:${randomUUID()}`;
      await pushSend.enqueue(
        this.db,
        key,
        { user: userId, subscription: subscription.id, payload, subject: `mailto:${site.supportEmail}` },
        { at: now },
      );
      keys.push(key);
    }
    await this.jobs.runNow(pushSend, keys);
    const delivered = keys.filter((key) => this.delivered.has(key)).length;
    for (const key of keys) this.delivered.delete(key);
    return delivered;
  }

  /** One push to one device (a job's attempt); a failure other than "gone" is thrown, to be retried. */
  private async deliverPush(push: PushJob, key: string): Promise<void> {
    const subscription = await repo.findPushSubscription(this.db, push.subscription);
    // Removed meanwhile (the member turned push off, or the service said gone): nothing to send.
    if (!subscription) return;
    try {
      await this.sendPushMessage(
        { endpoint: subscription.endpoint, keys: { p256dh: subscription.p256dh, auth: subscription.auth } },
        JSON.stringify(push.payload),
        {
          TTL: 3600,
          vapidDetails: {
            subject: push.subject,
            publicKey: this.secrets.vapid.publicKey,
            privateKey: this.secrets.vapid.privateKey,
          },
        },
      );
      this.delivered.add(key);
    } catch (error) {
      const status = (error as { statusCode?: number }).statusCode;
      const gone = status === 404 || status === 410;
      if (gone) await repo.deletePushSubscription(this.db, subscription.id);
      // Never silent: the member's other devices and the mail still go; the failure is logged and counted.
      this.onPushFailure?.({
        userId: push.user,
        subscriptionId: subscription.id,
        reason: gone ? 'gone' : 'error',
        status: status ?? null,
        error: error instanceof Error ? error.message : String(error),
      });
      if (!gone) throw error;
    }
  }
}
