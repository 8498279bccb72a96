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
} from '#contract/chats.ts';
import { errorBodySchema, okSchema } from '#contract/common.ts';
import { AppError } from '#server/lib/errors.ts';
import { sendSerialized, serializeAnswer, type ZodApp } from '#server/lib/zod-app.ts';
import { keepSessionWithCredits, requireMember } from '#server/modules/accounts/sessions.ts';
import { readUpload } from '#server/modules/photos/photos.routes.ts';
import { regionLabelled } from '#server/modules/regions/region-labels.ts';

const errors = {
  402: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
  422: errorBodySchema,
  429: errorBodySchema,
};

export async function chatsRoutes(app: ZodApp): Promise<void> {
  const chats = app.deps.chats;
  const lists = app.deps.chatLists;

  app.get(
    '/api/chats.php',
    {
      schema: {
        tags: ['chats'],
        summary:
          'Conversations, most recent activity first, with unread counts: a page at a time (`next` is the cursor of the following one)',
        querystring: chatsQuerySchema,
        response: { 200: chatsResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      const member = requireMember(request);
      // Polled by every open app: most polls find the list as it was (chat-list-cache.ts).
      const { cursor, limit } = request.query;
      const key = `${request.site.id} ${request.locale} ${cursor ?? ''} ${limit ?? ''}`;
      const body = await lists.getOrRead(member.id, key, async () => {
        const answer = await chats.list(member, request.site, { cursor, limit });
        return serializeAnswer(chatsResponseSchema, regionLabelled(answer, request.locale));
      });
      return sendSerialized(reply, body);
    },
  );

  app.get(
    '/api/chat.php',
    {
      schema: {
        tags: ['chats'],
        summary: 'A page of a conversation (newest page by default); marks it read',
        querystring: chatQuerySchema,
        response: { 200: chatResponseSchema, ...errors },
      },
    },
    async (request) => chats.read(requireMember(request), request.site, request.query, request.clientCountry),
  );

  app.post(
    '/api/chat.php',
    {
      config: {
        rateLimit: {
          max: 30,
          timeWindow: '1 minute',
          keyGenerator: (request) => `messages:${request.member?.id ?? request.ip}`,
        },
      },
      schema: {
        tags: ['chats'],
        summary:
          'Sends a text, one of the own photos or a gift; costs credits. 402 insufficient_credits. With client_id (an idempotency key per sender) a repeat answers the first message and charges nothing again',
        body: sendMessageSchema,
        response: { 201: sendMessageResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      const result = await chats.send(requireMember(request), request.site, request.body);
      await keepSessionWithCredits(app, request, result.credits);
      reply.status(201);
      return result;
    },
  );

  app.post(
    '/api/chat-photo.php',
    {
      config: {
        rateLimit: {
          max: 30,
          timeWindow: '1 hour',
          keyGenerator: (request) => `chat-photos:${request.member?.id ?? request.ip}`,
        },
      },
      schema: {
        tags: ['chats'],
        summary:
          'Sends a photo from the device (multipart field "file"), re-encoded without EXIF and kept out of the profile; costs the photo price. 402 insufficient_credits, 422 unsupported_image',
        consumes: ['multipart/form-data'],
        querystring: chatPhotoQuerySchema,
        response: { 201: sendMessageResponseSchema, 413: errorBodySchema, 415: errorBodySchema, ...errors },
      },
    },
    async (request, reply) => {
      const member = requireMember(request);
      await chats.checkRecipient(member, request.query.profile);
      if (!request.isMultipart()) throw new AppError(415, 'unsupported_media_type');
      const data = await readUpload(request);
      const result = await chats.sendUpload(member, request.site, request.query, data);
      await keepSessionWithCredits(app, request, result.credits);
      reply.status(201);
      return result;
    },
  );

  app.delete(
    '/api/chat.php',
    {
      schema: {
        tags: ['chats'],
        summary: 'Deletes a conversation for the member',
        body: deleteConversationSchema,
        response: { 200: okSchema, ...errors },
      },
    },
    async (request) => {
      await chats.remove(requireMember(request), request.body.conversation);
      return { ok: true as const };
    },
  );

  app.post(
    '/api/conversation.php',
    {
      schema: {
        tags: ['chats'],
        summary:
          'Opens (or starts) the conversation with a member. 403 premium_required past the free conversations',
        body: openConversationSchema,
        response: { 200: openConversationResponseSchema, ...errors },
      },
    },
    async (request) => ({
      conversation: await chats.open(requireMember(request), request.site, request.body.profile),
    }),
  );

  app.get(
    '/api/gifts.php',
    {
      schema: {
        tags: ['chats'],
        summary: 'The gifts that can be sent in a chat, with their price',
        response: { 200: giftsResponseSchema },
      },
    },
    async (request) => ({ gifts: await chats.gifts(request.site) }),
  );

  app.get(
    '/api/message-costs.php',
    {
      schema: {
        tags: ['chats'],
        summary:
          "What the member's next message, photo and gift cost, shown before spending (e.g. the icebreaker)",
        response: { 200: costsSchema, ...errors },
      },
    },
    async (request) => chats.costs(requireMember(request), request.site, request.clientCountry),
  );
}
