import { errorBodySchema, okSchema } from '#contract/common.ts';
import {
  memberQuerySchema,
  ownProfileResponseSchema,
  profilesResponseSchema,
  reportBodySchema,
} from '#contract/endpoints.ts';
import { profileRefSchema } from '#contract/likes.ts';
import { memberResponseSchema, profileUpdateSchema } from '#contract/profiles.ts';
import { AuthenticationRequiredError } from '#server/lib/errors.ts';
import type { ZodApp } from '#server/lib/zod-app.ts';
import { requireMember } from '#server/modules/accounts/sessions.ts';
import { SearchService } from '#server/modules/search/search.service.ts';

const errors = {
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
  422: errorBodySchema,
  429: errorBodySchema,
};

export async function profilesRoutes(app: ZodApp): Promise<void> {
  const profiles = app.deps.profiles;

  app.get(
    '/api/profile.php',
    {
      schema: {
        tags: ['profiles'],
        summary: "The member's own profile with every editable field and the photos",
        response: { 200: ownProfileResponseSchema, ...errors },
      },
    },
    async (request) => ({ profile: await profiles.own(requireMember(request), request.site) }),
  );

  app.put(
    '/api/profile.php',
    {
      schema: {
        tags: ['profiles'],
        summary: 'Changes any editable fields of the own profile',
        body: profileUpdateSchema,
        response: { 200: ownProfileResponseSchema, ...errors },
      },
    },
    async (request) => ({
      profile: await profiles.update(requireMember(request), request.site, request.body),
    }),
  );

  app.get(
    '/api/member.php',
    {
      schema: {
        tags: ['profiles'],
        summary:
          "Another member's profile and photos; premium photos are blurred copies for non-premium viewers. 403 blocked",
        querystring: memberQuerySchema,
        response: { 200: memberResponseSchema, ...errors },
      },
    },
    async (request) => {
      const hasTrafficSource = Boolean(request.cookies.tracking);
      if (!request.member && !SearchService.visitorMaySearch(request.site, hasTrafficSource)) {
        throw new AuthenticationRequiredError();
      }
      return profiles.view(request.member, request.query.id, request.site);
    },
  );

  app.post(
    '/api/block.php',
    {
      schema: {
        tags: ['profiles'],
        summary: 'Blocks a member: neither sees nor contacts the other any more',
        body: profileRefSchema,
        response: { 200: okSchema, ...errors },
      },
    },
    async (request) => {
      await profiles.block(requireMember(request), request.body.profile);
      return { ok: true as const };
    },
  );

  app.delete(
    '/api/block.php',
    {
      schema: {
        tags: ['profiles'],
        summary: 'Unblocks a member',
        body: profileRefSchema,
        response: { 200: okSchema, ...errors },
      },
    },
    async (request) => {
      await profiles.unblock(requireMember(request), request.body.profile);
      return { ok: true as const };
    },
  );

  app.get(
    '/api/blocks.php',
    {
      schema: {
        tags: ['profiles'],
        summary: 'The members the member blocked',
        response: { 200: profilesResponseSchema, ...errors },
      },
    },
    async (request) => ({ profiles: await profiles.blockedList(requireMember(request), request.site) }),
  );

  app.post(
    '/api/report.php',
    {
      config: {
        rateLimit: {
          max: 10,
          timeWindow: '1 hour',
          keyGenerator: (request) => `report:${request.member?.id ?? request.ip}`,
        },
      },
      schema: {
        tags: ['profiles'],
        summary:
          'Reports a profile, or a message of a conversation the member takes part in, to the operators',
        body: reportBodySchema,
        response: { 200: okSchema, ...errors },
      },
    },
    async (request) => {
      await profiles.report(requireMember(request), request.body);
      return { ok: true as const };
    },
  );
}
