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
  return (
    row ?? {
      userId,
      emailMessages: true,
      emailLikes: true,
      emailMatches: true,
      emailNews: true,
      pushMessages: true,
      pushLikes: true,
      pushMatches: true,
      pushNews: false,
    }
  );
}

export async function savePreferences(db: Executor, preferences: Preferences): Promise<void> {
  const { userId, ...values } = preferences;
  await db
    .insert(notificationPreferences)
    .values(preferences)
    .onConflictDoUpdate({ target: notificationPreferences.userId, set: values });
}

export async function setOnlineUntil(db: Executor, userId: number, until: Date): Promise<void> {
  await db.update(users).set({ onlineUntil: until }).where(eq(users.id, userId));
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

/**
 * Claims the right to mail about a new message: only when the member was not mailed about this
 * conversation since reading it last. Returns false when a mail already went out.
 */
export async function claimMessageNotification(
  db: Executor,
  conversationId: number,
  profileId: number,
  messageId: number,
): Promise<boolean> {
  const updated = await db
    .update(conversationParticipants)
    .set({ notifiedMessageId: messageId })
    .where(
      and(
        eq(conversationParticipants.conversationId, conversationId),
        eq(conversationParticipants.profileId, profileId),
        sql`${conversationParticipants.notifiedMessageId} <= ${conversationParticipants.lastReadMessageId}`,
      ),
    )
    .returning({ id: conversationParticipants.conversationId });
  return updated.length > 0;
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

export async function deletePushSubscription(db: Executor, id: number): Promise<void> {
  await db.delete(pushSubscriptions).where(eq(pushSubscriptions.id, id));
}
