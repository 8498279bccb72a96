import { chatsResponseSchema } from '#contract/chats.ts';
import { chatsEndpoints } from '#contract/endpoints/chats.ts';
import { routeOf } from '#server/lib/endpoint-route.ts';
import { AppError } from '#server/lib/errors.ts';
import { sendSerialized, serializeAnswer, type ZodApp } from '#server/lib/zod-app.ts';
import { keepSessionWithCredits, requireMember } from '#server/modules/accounts/sessions.ts';
import { readUpload } from '#server/modules/photos/photos.routes.ts';
import { regionLabelled } from '#server/modules/regions/region-labels.ts';

export async function chatsRoutes(app: ZodApp): Promise<void> {
  const chats = app.deps.chats;
  const lists = app.deps.chatLists;

  routeOf(app, chatsEndpoints.getChats, {}, async (request, reply) => {
    const member = requireMember(request);
    // Polled by every open app: most polls find the list as it was (chat-list-cache.ts).
    const { cursor, limit } = request.query;
    const key = `${request.site.id} ${request.locale} ${cursor ?? ''} ${limit ?? ''}`;
    const body = await lists.getOrRead(member.id, key, async () => {
      const answer = await chats.list(member, request.site, { cursor, limit });
      return serializeAnswer(chatsResponseSchema, regionLabelled(answer, request.locale));
    });
    return sendSerialized(reply, body);
  });

  routeOf(app, chatsEndpoints.getChat, {}, async (request) =>
    chats.read(requireMember(request), request.site, request.query, request.clientCountry),
  );

  routeOf(
    app,
    chatsEndpoints.postChat,
    {
      config: {
        rateLimit: {
          max: 30,
          timeWindow: '1 minute',
          keyGenerator: (request) => `messages:${request.member?.id ?? request.ip}`,
        },
      },
    },
    async (request, reply) => {
      const result = await chats.send(requireMember(request), request.site, request.body);
      await keepSessionWithCredits(app, request, result.credits);
      reply.status(201);
      return result;
    },
  );

  routeOf(
    app,
    chatsEndpoints.postChatPhoto,
    {
      config: {
        rateLimit: {
          max: 30,
          timeWindow: '1 hour',
          keyGenerator: (request) => `chat-photos:${request.member?.id ?? request.ip}`,
        },
      },
    },
    async (request, reply) => {
      const member = requireMember(request);
      await chats.checkRecipient(member, request.query.profile);
      if (!request.isMultipart()) throw new AppError(415, 'unsupported_media_type');
      const data = await readUpload(request);
      const result = await chats.sendUpload(member, request.site, request.query, data);
      await keepSessionWithCredits(app, request, result.credits);
      // Held by the screening (decision 060): `in_review` instead of `message`, not sent yet.
      reply.status(201);
      return result;
    },
  );

  routeOf(app, chatsEndpoints.deleteChat, {}, async (request) => {
    await chats.remove(requireMember(request), request.body.conversation);
    return { ok: true as const };
  });

  routeOf(app, chatsEndpoints.postConversation, {}, async (request) => ({
    conversation: await chats.open(requireMember(request), request.site, request.body.profile),
  }));

  routeOf(app, chatsEndpoints.getGifts, {}, async (request) => ({ gifts: await chats.gifts(request.site) }));

  routeOf(app, chatsEndpoints.getMessageCosts, {}, async (request) =>
    chats.costs(requireMember(request), request.site, request.clientCountry),
  );
}
