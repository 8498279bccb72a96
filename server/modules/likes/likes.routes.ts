import { likesEndpoints } from '#contract/endpoints/likes.ts';
import { routeOf } from '#server/lib/endpoint-route.ts';
import type { ZodApp } from '#server/lib/zod-app.ts';
import { requireMember } from '#server/modules/accounts/sessions.ts';

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

  routeOf(app, likesEndpoints.getLikes, {}, async (request) =>
    likes.list(requireMember(request), request.site),
  );

  routeOf(app, likesEndpoints.postLike, { config: perMember(60) }, async (request) => {
    const { match } = await likes.like(requireMember(request), request.site, request.body.profile);
    return { match };
  });

  routeOf(app, likesEndpoints.deleteLike, {}, async (request) => {
    await likes.unlike(requireMember(request), request.body.profile);
    return { ok: true as const };
  });

  routeOf(app, likesEndpoints.getSwipe, {}, async (request) =>
    likes.swipeStack(requireMember(request), request.site),
  );

  routeOf(app, likesEndpoints.postSwipe, { config: perMember(120) }, async (request) =>
    likes.swipe(requireMember(request), request.site, request.body.profile, request.body.like),
  );

  routeOf(app, likesEndpoints.postSwipeUndo, { config: perMember(60) }, async (request) =>
    likes.undoPass(requireMember(request), request.site, request.body.profile),
  );

  routeOf(app, likesEndpoints.getVisitors, {}, async (request) =>
    likes.visitors(requireMember(request), request.site, request.query.cursor),
  );

  routeOf(app, likesEndpoints.getAutoLike, {}, async (request) => ({
    profile: await likes.autoLike(requireMember(request), request.site),
  }));
}
