import { and, eq, sql } from 'drizzle-orm';
import type { Executor } from '#server/db/client.ts';
import { conversationParticipants } from '#server/db/schema/chats.ts';
import { users } from '#server/db/schema/members.ts';
import { notificationPreferences, pushSubscriptions } from '#server/db/schema/notifications.ts';

export type Preferences = typeof notificationPreferences.$inferSelect;

export async function preferencesOf(db: Executor, userId: number): Promise<Preferences> {
  const [row] = await db
    .select()
    .from(notificationPreferences)
    .where(eq(notificationPreferences.userId, userId));
  return row ?? defaultPreferences(userId);
}

/** A member who never changed the settings. */
export function defaultPreferences(userId: number): Preferences {
  return {
    userId,
    emailMessages: true,
    emailLikes: true,
    emailMatches: true,
    emailVisitors: true,
    emailUnread: true,
    emailLikesDigest: true,
    // Marketing mail is opt-in: off until the member ticks it.
    emailNews: false,
    pushMessages: true,
    pushLikes: true,
    pushMatches: true,
    pushVisitors: true,
    pushUnread: true,
    pushLikesDigest: true,
    pushNews: false,
  };
}

export async function savePreferences(db: Executor, preferences: Preferences): Promise<void> {
  const { userId, ...values } = preferences;
  await db
    .insert(notificationPreferences)
    .values(preferences)
    .onConflictDoUpdate({ target: notificationPreferences.userId, set: values });
}

/** Many members' presence copies in one statement (an UPDATE … FROM unnest). */
export async function setOnlineUntilMany(
  db: Executor,
  entries: readonly (readonly [number, Date])[],
): Promise<void> {
  if (entries.length === 0) return;
  // Array literals of integers and ISO times: one parameter each, whatever the driver.
  const ids = `{${entries.map(([id]) => id).join(',')}}`;
  const untils = `{${entries.map(([, until]) => until.toISOString()).join(',')}}`;
  await db
    .update(users)
    .set({ onlineUntil: sql`v.until` })
    .from(sql`unnest(${ids}::int[], ${untils}::timestamptz[]) as v(id, until)`)
    .where(sql`${users.id} = v.id`);
}

export async function setNotificationsDisabled(
  db: Executor,
  userId: number,
  reasons: string[],
): Promise<void> {
  await db.update(users).set({ notificationsDisabled: reasons }).where(eq(users.id, userId));
}

export async function usersByEmail(db: Executor, email: string) {
  return db.select().from(users).where(sql`lower(${users.email}) = ${email.toLowerCase()}`);
}

export async function upsertPushSubscription(
  db: Executor,
  subscription: typeof pushSubscriptions.$inferInsert,
): Promise<void> {
  await db
    .insert(pushSubscriptions)
    .values(subscription)
    .onConflictDoUpdate({
      target: pushSubscriptions.endpoint,
      set: { userId: subscription.userId, p256dh: subscription.p256dh, auth: subscription.auth },
    });
}

export async function pushSubscriptionsOf(db: Executor, userId: number) {
  return db.select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, userId));
}

export async function findPushSubscription(db: Executor, id: number) {
  const [row] = await db.select().from(pushSubscriptions).where(eq(pushSubscriptions.id, id));
  return row;
}

export async function deletePushSubscription(db: Executor, id: number): Promise<void> {
  await db.delete(pushSubscriptions).where(eq(pushSubscriptions.id, id));
}

export type PushSubscriptionTarget = { id: number; endpoint: string; p256dh: string; auth: string };

/**
 * What a message notification needs, in one statement (a send's query budget, tests/perf): the
 * claim of the right to mail about the message (only when the member was not mailed about this
 * conversation since reading it last; not claimed when a mail already went out), the member's
 * preferences (null: the defaults) and push subscriptions.
 */
export async function messageNotificationContext(
  db: Executor,
  input: { userId: number; conversationId: number; profileId: number; messageId: number },
): Promise<{ claimed: boolean; preferences: Preferences; subscriptions: PushSubscriptionTarget[] }> {
  const claim = db.$with('claim').as(
    db
      .update(conversationParticipants)
      .set({ notifiedMessageId: input.messageId })
      .where(
        and(
          eq(conversationParticipants.conversationId, input.conversationId),
          eq(conversationParticipants.profileId, input.profileId),
          sql`${conversationParticipants.notifiedMessageId} <= ${conversationParticipants.lastReadMessageId}`,
        ),
      )
      .returning({ id: conversationParticipants.conversationId }),
  );
  const [row] = await db
    .with(claim)
    .select({
      claimed: sql<boolean>`exists (select 1 from ${claim})`,
      preferences: notificationPreferences,
      subscriptions: sql<
        PushSubscriptionTarget[]
      >`(select coalesce(json_agg(json_build_object('id', s.id, 'endpoint', s.endpoint, 'p256dh', s.p256dh, 'auth', s.auth) order by s.id), '[]'::json) from ${pushSubscriptions} s where s.user_id = ${users.id})`,
    })
    .from(users)
    .leftJoin(notificationPreferences, eq(notificationPreferences.userId, users.id))
    .where(eq(users.id, input.userId));
  return {
    claimed: row?.claimed ?? false,
    preferences: row?.preferences ?? defaultPreferences(input.userId),
    subscriptions: row?.subscriptions ?? [],
  };
}
