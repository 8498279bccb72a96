import { winbackEndpoints } from '#contract/endpoints/winback.ts';
import { routeOf } from '#server/lib/endpoint-route.ts';
import type { ZodApp } from '#server/lib/zod-app.ts';
import { requireStaff } from '#server/modules/staff/staff.sessions.ts';

/** The win-back rule per site (admins: it hands out discounts, like the discount codes). */
export async function winbackRoutes(app: ZodApp): Promise<void> {
  const winback = app.deps.winback;

  routeOf(app, winbackEndpoints.getWinback, {}, async (request) => {
    requireStaff(request, 'manage_offers');
    return winback.rule(request.query.site);
  });

  routeOf(app, winbackEndpoints.putWinback, {}, async (request) => {
    requireStaff(request, 'manage_offers');
    return winback.save(request.body);
  });
}
