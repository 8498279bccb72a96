import { z } from 'zod';
import { idField } from './common.ts';
import { profileSchema } from './profiles.ts';

export const likedByEntrySchema = z.object({ id: z.number().int(), like_new: z.boolean() });

/** GET /api/likes.php: `profiles` the member liked and `liked_by` (spec §3), plus the likers' profiles and matches. */
export const likesResponseSchema = z.object({
  profiles: z.array(profileSchema).describe('profiles the member liked, newest first'),
  liked_by: z.array(likedByEntrySchema).describe('who liked the member: new first, then newest'),
  received: z.array(profileSchema).describe('the profiles of liked_by, in the same order'),
  matches: z.array(profileSchema).describe('mutual likes'),
  new_matches: z
    .array(idField)
    .describe('the ids of the matches with no conversation yet (the new-matches row of the chats page)'),
});
export type LikesResponse = z.infer<typeof likesResponseSchema>;

export const profileRefSchema = z.object({ profile: idField });
export const matchResponseSchema = z.object({ match: z.boolean() });

export const swipeStackSchema = z.object({ profiles: z.array(profileSchema), likes_left: z.number().int() });
export const swipeBodySchema = z.object({ profile: idField, like: z.boolean() });
export const swipeResultSchema = z.object({ likes_left: z.number().int(), match: z.boolean() });

export const swipeUndoResponseSchema = z.object({
  profile: profileSchema.describe('the card that comes back on top of the stack'),
});

export const autoLikeResponseSchema = z.object({ profile: profileSchema.nullable() });

export const swipeLikesPerDay = 4;

/** Visitors shown per page of "who viewed me". */
export const visitorsPageSize = 24;

export const visitorsQuerySchema = z.object({
  cursor: z
    .string()
    .max(40)
    .regex(/^\d{1,15}\.\d{1,10}$/)
    .optional()
    .describe('the next_cursor of the previous page'),
});

export const visitorSchema = z.object({
  profile: profileSchema.describe(
    'blurred: a veiled card (id 0, no name or texts, the photo a blurred copy), only age and region kept',
  ),
  visited_at: z.string().describe('ISO 8601: the latest visit of that day'),
  new: z.boolean().describe('after the member last opened the list'),
});
export type Visitor = z.infer<typeof visitorSchema>;

export const visitorsResponseSchema = z.object({
  visitors: z.array(visitorSchema).describe('one per visitor per day, newest first'),
  total: z.number().int().describe('all visits listed, over every page'),
  new_count: z.number().int().describe('visits since the member last opened the list'),
  blurred: z.boolean().describe('a free member: who visited stays veiled until they go premium'),
  next_cursor: z.string().nullable(),
});
export type VisitorsResponse = z.infer<typeof visitorsResponseSchema>;
