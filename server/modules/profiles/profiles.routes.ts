import { profilesEndpoints } from '#contract/endpoints/profiles.ts';
import { routeOf } from '#server/lib/endpoint-route.ts';
import { AuthenticationRequiredError } from '#server/lib/errors.ts';
import type { ZodApp } from '#server/lib/zod-app.ts';
import { requireMember } from '#server/modules/accounts/sessions.ts';
import { SearchService } from '#server/modules/search/search.service.ts';

export async function profilesRoutes(app: ZodApp): Promise<void> {
  const profiles = app.deps.profiles;

  routeOf(app, profilesEndpoints.getProfile, {}, async (request) => ({
    profile: await profiles.own(requireMember(request), request.site),
  }));

  routeOf(app, profilesEndpoints.putProfile, {}, async (request) => ({
    profile: await profiles.update(requireMember(request), request.site, request.body),
  }));

  routeOf(app, profilesEndpoints.getMember, {}, async (request) => {
    const hasTrafficSource = Boolean(request.cookies.tracking);
    if (!request.member && !SearchService.visitorMaySearch(request.site, hasTrafficSource)) {
      throw new AuthenticationRequiredError();
    }
    return profiles.view(request.member, request.query.id, request.site);
  });

  routeOf(app, profilesEndpoints.postBlock, {}, async (request) => {
    await profiles.block(requireMember(request), request.body.profile);
    return { ok: true as const };
  });

  routeOf(app, profilesEndpoints.deleteBlock, {}, async (request) => {
    await profiles.unblock(requireMember(request), request.body.profile);
    return { ok: true as const };
  });

  routeOf(app, profilesEndpoints.getBlocks, {}, async (request) => ({
    profiles: await profiles.blockedList(requireMember(request), request.site),
  }));

  routeOf(
    app,
    profilesEndpoints.postReport,
    {
      config: {
        rateLimit: {
          max: 10,
          timeWindow: '1 hour',
          keyGenerator: (request) => `report:${request.member?.id ?? request.ip}`,
        },
      },
    },
    async (request) => {
      await profiles.report(requireMember(request), request.body);
      return { ok: true as const };
    },
  );
}
