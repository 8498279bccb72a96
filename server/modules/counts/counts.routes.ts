import { countsEndpoints } from '#contract/endpoints/counts.ts';
import { routeOf } from '#server/lib/endpoint-route.ts';
import type { ZodApp } from '#server/lib/zod-app.ts';
import { requireMember } from '#server/modules/accounts/sessions.ts';
import { countsOf } from './counts.service.ts';

export async function countsRoutes(app: ZodApp): Promise<void> {
  routeOf(app, countsEndpoints.getCounts, {}, async (request) =>
    countsOf(app.deps.db, requireMember(request)),
  );
}
