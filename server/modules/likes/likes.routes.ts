import { errorBodySchema, okSchema } from '#contract/common.ts';
import {
  autoLikeResponseSchema,
  likesResponseSchema,
  matchResponseSchema,
  profileRefSchema,
  swipeBodySchema,
  swipeResultSchema,
  swipeStackSchema,
  swipeUndoResponseSchema,
} from '#contract/likes.ts';
import type { ZodApp } from '#server/lib/zod-app.ts';
import { requireMember } from '#server/modules/accounts/sessions.ts';

const errors = { 403: errorBodySchema, 404: errorBodySchema, 422: errorBodySchema, 429: errorBodySchema };
const perMember = (max: number) => ({
  rateLimit: {
    max,
    timeWindow: '1 minute',
    keyGenerator: (request: { member: { id: number } | null; ip: string }) =>
      `likes:${request.member?.id ?? request.ip}`,
  },
});

export async function likesRoutes(app: ZodApp): Promise<void> {
  const likes = app.deps.likes;

  app.get(
    '/api/likes.php',
    {
      schema: {
        tags: ['likes'],
        summary: 'Given and received likes (new first) and matches',
        response: { 200: likesResponseSchema, ...errors },
      },
    },
    async (request) => likes.list(requireMember(request), request.site),
  );

  app.post(
    '/api/like.php',
    {
      config: perMember(60),
      schema: {
        tags: ['likes'],
        summary: 'Likes a member; a mutual like is a match',
        body: profileRefSchema,
        response: { 200: matchResponseSchema, ...errors },
      },
    },
    async (request) => {
      const { match } = await likes.like(requireMember(request), request.site, request.body.profile);
      return { match };
    },
  );

  app.delete(
    '/api/like.php',
    {
      schema: {
        tags: ['likes'],
        summary: 'Takes a like back',
        body: profileRefSchema,
        response: { 200: okSchema, ...errors },
      },
    },
    async (request) => {
      await likes.unlike(requireMember(request), request.body.profile);
      return { ok: true as const };
    },
  );

  app.get(
    '/api/swipe.php',
    {
      schema: {
        tags: ['likes'],
        summary: 'The next cards of the swipe game and the likes left today',
        response: { 200: swipeStackSchema, ...errors },
      },
    },
    async (request) => likes.swipeStack(requireMember(request), request.site),
  );

  app.post(
    '/api/swipe.php',
    {
      config: perMember(120),
      schema: {
        tags: ['likes'],
        summary: "Likes or passes a card; 429 daily_limit after the day's 4 likes",
        body: swipeBodySchema,
        response: { 200: swipeResultSchema, ...errors },
      },
    },
    async (request) =>
      likes.swipe(requireMember(request), request.site, request.body.profile, request.body.like),
  );

  app.post(
    '/api/swipe-undo.php',
    {
      config: perMember(60),
      schema: {
        tags: ['likes'],
        summary:
          "Takes back the member's last pass (the card returns); 409 undo_unavailable for any other pass or after a like, 404 when the profile can no longer be shown (deleted, or a block either way)",
        body: profileRefSchema,
        response: { 200: swipeUndoResponseSchema, 409: errorBodySchema, ...errors },
      },
    },
    async (request) => likes.undoPass(requireMember(request), request.site, request.body.profile),
  );

  app.get(
    '/api/auto-like.php',
    {
      schema: {
        tags: ['likes'],
        summary: 'A profile that likes the member, or null',
        response: { 200: autoLikeResponseSchema, ...errors },
      },
    },
    async (request) => ({ profile: await likes.autoLike(requireMember(request), request.site) }),
  );
}
