import { z } from 'zod';
import { cursorParam, idField, idParam } from './common.ts';
import { profileSchema } from './profiles.ts';

/** A gift's own names per language; empty for the built-in gifts (their names are `chat:gift.<slug>`). */
export const giftNamesSchema = z
  .record(z.string(), z.string())
  .describe("names per language; a missing one: English, else the catalog's chat:gift.<slug>");

export const messageSchema = z.object({
  id: z.number().int(),
  conversation: z.number().int(),
  mine: z.boolean(),
  kind: z.enum(['text', 'photo', 'gift']),
  text: z.string().nullable().describe('plain text; clients render it as text, never as HTML'),
  photo: z.object({ filename: z.string(), thumb_filename: z.string() }).nullable(),
  gift: z
    .object({ id: z.number().int(), slug: z.string(), image: z.string(), names: giftNamesSchema })
    .nullable(),
  credits: z.number().int().describe('what the sender paid'),
  created_at: z.string(),
  client_id: z
    .string()
    .nullable()
    .optional()
    .describe(
      "the sender's idempotency key (client_id of POST /api/chat.php); only on the sender's own messages",
    ),
});
export type Message = z.infer<typeof messageSchema>;

export const conversationSchema = z.object({
  id: z.number().int(),
  last_message: messageSchema.nullable(),
  last_activity: z.string(),
});

/** Chat list item (spec §3): profile, conversation, num_unread_messages. */
export const chatListItemSchema = z.object({
  profile: profileSchema,
  conversation: conversationSchema,
  num_unread_messages: z.number().int(),
});
export type ChatListItem = z.infer<typeof chatListItemSchema>;

/** Conversations per page of GET /api/chats.php unless `limit` says otherwise. */
export const chatListPageSize = 50;

export const chatsQuerySchema = z.object({
  cursor: z
    .string()
    .regex(/^\d{1,19}\.\d{1,10}$/)
    .optional()
    .describe('the next page: the `next` of the previous answer'),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(100)
    .optional()
    .describe(`conversations per page (default ${chatListPageSize})`),
});

export const chatsResponseSchema = z.object({
  chats: z.array(chatListItemSchema),
  next: z.string().nullable().describe('the cursor of the next (older) page, or null on the last page'),
});

export const chatQuerySchema = z.object({
  conversation: idParam,
  before: idParam.optional().describe('older page: messages before this id'),
  after: cursorParam.optional().describe('catch-up after a reconnect: messages after this id'),
});

export const costsSchema = z.object({
  message: z.number().int(),
  photo: z.number().int(),
  gift: z.number().int(),
  free_messages_left: z.number().int(),
  minimum_message_cost: z.object({ costs: z.number().int(), currency: z.string() }).nullable(),
});
export type Costs = z.infer<typeof costsSchema>;

/** A photo of the viewer's that the screening held: only its sender sees it, as "in review" (decision 060). */
export const photoInReviewSchema = z.object({
  id: z.number().int(),
  conversation: z.number().int(),
  thumb_filename: z.string(),
  credits: z.number().int().describe('what the sender paid; given back if a moderator rejects it'),
  created_at: z.string(),
});
export type PhotoInReview = z.infer<typeof photoInReviewSchema>;

export const chatResponseSchema = z.object({
  conversation: conversationSchema,
  profile: profileSchema,
  off_shift_reply_minutes: z
    .number()
    .int()
    .nullable()
    .describe(
      "a fictional profile whose team is off shift: how fast it usually answers then (the site's setting); else null",
    ),
  messages: z.array(messageSchema).describe('oldest first; at most one page'),
  photos_in_review: z
    .array(photoInReviewSchema)
    .optional()
    .describe("the viewer's photos the screening held for a moderator, oldest first"),
  has_older: z.boolean(),
  costs: costsSchema,
  can_reply: z.boolean().describe('false while the other member has not confirmed the e-mail address'),
  read_up_to: z
    .number()
    .int()
    .optional()
    .describe("the newest message id the other member has read: the sender's read receipts"),
});
export type ChatResponse = z.infer<typeof chatResponseSchema>;

export const sendMessageSchema = z
  .object({
    profile: idField,
    text: z.string().optional(),
    photo: idField.optional().describe("one of the sender's own photos"),
    gift: idField.optional(),
    client_id: z
      .string()
      .regex(/^[A-Za-z0-9_-]{8,64}$/)
      .optional()
      .describe(
        'idempotency key made by the client for this message: a repeat with the same key (a retry, a resend after a reconnect) returns the first message and charges nothing again',
      ),
  })
  .refine((body) => [body.text, body.photo, body.gift].filter((value) => value !== undefined).length === 1, {
    message: 'invalid',
    path: ['text'],
  });

/** POST /api/chat-photo.php?profile=&client_id=: a photo from the device (multipart field "file"). */
export const chatPhotoQuerySchema = z.object({
  profile: idParam,
  client_id: z
    .string()
    .regex(/^[A-Za-z0-9_-]{8,64}$/)
    .optional()
    .describe('idempotency key, as for POST /api/chat.php'),
});

export const sendMessageResponseSchema = z.object({
  message: messageSchema,
  credits: z.number().int(),
  warning: z
    .enum(['contact_details'])
    .optional()
    .describe('the text seems to share a phone number or e-mail address'),
});

/** POST /api/chat-photo.php when the screening held the photo: no message yet, the price paid. */
export const sendPhotoHeldResponseSchema = z.object({
  in_review: photoInReviewSchema,
  credits: z.number().int(),
});

export const openConversationSchema = z.object({ profile: idField });
export const openConversationResponseSchema = z.object({ conversation: z.number().int() });
export const deleteConversationSchema = z.object({ conversation: idField });

export const giftsResponseSchema = z.object({
  gifts: z.array(
    z.object({
      id: z.number().int(),
      slug: z.string(),
      image: z.string(),
      names: giftNamesSchema,
      credits: z.number().int(),
    }),
  ),
});

/** Only the last messages of a conversation are ever shown (spec §9: chat history is limited). */
export const chatHistoryLimit = 200;
export const chatPageSize = 50;
