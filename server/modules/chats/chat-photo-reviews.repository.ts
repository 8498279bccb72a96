import { and, asc, eq, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Executor } from '#server/db/client.ts';
import { type ChatPhotoReviewRow, chatPhotoReviews } from '#server/db/schema/chats.ts';
import { profiles, users } from '#server/db/schema/members.ts';
import { sites } from '#server/db/schema/sites.ts';

export type NewHeldPhoto = typeof chatPhotoReviews.$inferInsert;

/**
 * Keeps a held chat photo. A repeat of the same send (same client_id) finds the first one instead:
 * the unique index decides, so parallel repeats hold one photo and pay once. Tells which happened.
 */
export async function holdPhoto(
  tx: Executor,
  row: NewHeldPhoto,
): Promise<{ held: ChatPhotoReviewRow; repeated: boolean }> {
  const [inserted] = await tx.insert(chatPhotoReviews).values(row).onConflictDoNothing().returning();
  if (inserted) return { held: inserted, repeated: false };
  const [earlier] = await tx
    .select()
    .from(chatPhotoReviews)
    .where(
      and(
        eq(chatPhotoReviews.senderProfileId, row.senderProfileId),
        eq(chatPhotoReviews.clientId, row.clientId ?? ''),
      ),
    )
    .limit(1);
  if (!earlier) throw new Error('a held photo conflicted with none');
  return { held: earlier, repeated: true };
}

/** A held photo under its row lock: parallel decisions queue here and the later ones see the first. */
export async function lockHeldPhoto(tx: Executor, id: number): Promise<ChatPhotoReviewRow | undefined> {
  const [row] = await tx
    .select()
    .from(chatPhotoReviews)
    .where(eq(chatPhotoReviews.id, id))
    .for('update')
    .limit(1);
  return row;
}

export async function finishHeldPhoto(
  tx: Executor,
  id: number,
  set: Pick<ChatPhotoReviewRow, 'status' | 'decidedAt'> & Partial<Pick<ChatPhotoReviewRow, 'messageId'>>,
): Promise<void> {
  await tx.update(chatPhotoReviews).set(set).where(eq(chatPhotoReviews.id, id));
}

/** Held chat photos for the moderators' queue: apparent minors first, then oldest first. */
export function heldPhotoQueue(db: Executor, limit: number) {
  const recipient = alias(profiles, 'recipient');
  return db
    .select({
      held: chatPhotoReviews,
      sender: { id: profiles.id, name: profiles.name },
      recipient: { id: recipient.id, name: recipient.name },
      siteId: users.siteId,
      siteName: sites.name,
    })
    .from(chatPhotoReviews)
    .innerJoin(profiles, eq(profiles.id, chatPhotoReviews.senderProfileId))
    .innerJoin(recipient, eq(recipient.id, chatPhotoReviews.recipientProfileId))
    .innerJoin(users, eq(users.id, chatPhotoReviews.senderUserId))
    .innerJoin(sites, eq(sites.id, users.siteId))
    .where(eq(chatPhotoReviews.status, 'held'))
    .orderBy(
      sql`case when ${chatPhotoReviews.holdReason} = 'apparent_minor' then 0 else 1 end`,
      asc(chatPhotoReviews.createdAt),
      asc(chatPhotoReviews.id),
    )
    .limit(limit);
}
