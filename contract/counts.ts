import { z } from 'zod';

/** The shell's badges in one call: the lists load only on the pages that show them. */
export const countsResponseSchema = z.object({
  /** Unread messages over the conversations chats.php lists. */
  unread_messages: z.number().int().nonnegative(),
  /** Conversations with at least one unread message. */
  unread_conversations: z.number().int().nonnegative(),
  /** Received likes not seen yet (likes.php `liked_by` with `like_new`). */
  new_likes: z.number().int().nonnegative(),
  credits: z.number().int(),
});
export type CountsResponse = z.infer<typeof countsResponseSchema>;
