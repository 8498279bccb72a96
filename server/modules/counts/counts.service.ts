import type { CountsResponse } from '#contract/counts.ts';
import type { Database } from '#server/db/client.ts';
import type { UserRow } from '#server/db/schema/members.ts';
import { sessionProfileOf } from '#server/modules/profiles/profiles.service.ts';
import { badgeCounts } from './counts.repository.ts';

/** The shell's badges: one query besides the session (the profile comes with it). */
export async function countsOf(db: Database, member: UserRow): Promise<CountsResponse> {
  const profile = await sessionProfileOf(db, member);
  const counts = profile
    ? await badgeCounts(db, profile.id)
    : { unreadMessages: 0, unreadConversations: 0, newLikes: 0 };
  return {
    unread_messages: counts.unreadMessages,
    unread_conversations: counts.unreadConversations,
    new_likes: counts.newLikes,
    credits: member.credits,
  };
}
