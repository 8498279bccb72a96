import { z } from 'zod';
import {
  chatPhotoQuerySchema,
  chatQuerySchema,
  chatResponseSchema,
  chatsQuerySchema,
  chatsResponseSchema,
  costsSchema,
  deleteConversationSchema,
  giftsResponseSchema,
  openConversationResponseSchema,
  openConversationSchema,
  sendMessageResponseSchema,
  sendMessageSchema,
  sendPhotoHeldResponseSchema,
} from '../chats.ts';
import { errorBodySchema, okSchema } from '../common.ts';
import { defineEndpoint } from '../endpoint.ts';

const errors = {
  402: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
  422: errorBodySchema,
  429: errorBodySchema,
};

/** The chats calls: each route is registered from its declaration and the web client typed by it. */
export const chatsEndpoints = {
  getChats: defineEndpoint({
    method: 'GET',
    path: '/api/chats.php',
    tags: ['chats'],
    summary:
      'Conversations, most recent activity first, with unread counts: a page at a time (`next` is the cursor of the following one)',
    query: chatsQuerySchema,
    responses: { 200: chatsResponseSchema, ...errors },
    errors: ['validation_failed'],
  }),
  getChat: defineEndpoint({
    method: 'GET',
    path: '/api/chat.php',
    tags: ['chats'],
    summary: 'A page of a conversation (newest page by default); marks it read',
    query: chatQuerySchema,
    responses: { 200: chatResponseSchema, ...errors },
    errors: ['blocked'],
  }),
  postChat: defineEndpoint({
    method: 'POST',
    path: '/api/chat.php',
    tags: ['chats'],
    summary:
      'Sends a text, one of the own photos or a gift; costs credits. 402 insufficient_credits, 403 posting_suspended while a strike suspends the member. With client_id (an idempotency key per sender) a repeat answers the first message and charges nothing again',
    body: sendMessageSchema,
    responses: { 201: sendMessageResponseSchema, ...errors },
    errors: ['insufficient_credits', 'premium_required', 'blocked', 'not_confirmed', 'posting_suspended'],
  }),
  postChatPhoto: defineEndpoint({
    method: 'POST',
    path: '/api/chat-photo.php',
    tags: ['chats'],
    summary:
      'Sends a photo from the device (multipart field "file"), re-encoded without EXIF and kept out of the profile; costs the photo price. in_review instead of message when the screening holds it for a moderator (no message until approved; the price is given back if rejected). 402 insufficient_credits, 422 unsupported_image',
    errors: ['insufficient_credits', 'posting_suspended', 'unsupported_image'],
    consumes: ['multipart/form-data'],
    query: chatPhotoQuerySchema,
    responses: {
      201: z.union([sendMessageResponseSchema, sendPhotoHeldResponseSchema]),
      413: errorBodySchema,
      415: errorBodySchema,
      ...errors,
    },
  }),
  deleteChat: defineEndpoint({
    method: 'DELETE',
    path: '/api/chat.php',
    tags: ['chats'],
    summary: 'Deletes a conversation for the member',
    body: deleteConversationSchema,
    responses: { 200: okSchema, ...errors },
  }),
  postConversation: defineEndpoint({
    method: 'POST',
    path: '/api/conversation.php',
    tags: ['chats'],
    summary:
      'Opens (or starts) the conversation with a member. 403 premium_required past the free conversations',
    body: openConversationSchema,
    responses: { 200: openConversationResponseSchema, ...errors },
    errors: ['premium_required', 'blocked'],
  }),
  getGifts: defineEndpoint({
    method: 'GET',
    path: '/api/gifts.php',
    tags: ['chats'],
    summary: 'The gifts that can be sent in a chat, with their price',
    responses: { 200: giftsResponseSchema },
  }),
  getMessageCosts: defineEndpoint({
    method: 'GET',
    path: '/api/message-costs.php',
    tags: ['chats'],
    summary:
      "What the member's next message, photo and gift cost, shown before spending (e.g. the icebreaker)",
    responses: { 200: costsSchema, ...errors },
  }),
};
