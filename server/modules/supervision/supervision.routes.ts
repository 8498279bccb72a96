import { supervisionEndpoints } from '#contract/endpoints/supervision.ts';
import { routeOf } from '#server/lib/endpoint-route.ts';
import type { ZodApp } from '#server/lib/zod-app.ts';
import { requireStaff } from '#server/modules/staff/staff.sessions.ts';

/** The supervisor board and conversations started as a fictional profile (api-contract.md, the workbench). */
export async function supervisionRoutes(app: ZodApp): Promise<void> {
  const { supervision } = app.deps;

  routeOf(app, supervisionEndpoints.getBoard, {}, async (request) =>
    supervision.board(requireStaff(request, 'supervise'), request.query),
  );

  routeOf(app, supervisionEndpoints.putBoard, {}, async (request) => {
    await supervision.closeReport(requireStaff(request, 'supervise'), request.body, request.ip);
    return { ok: true as const, report: request.body.report };
  });

  routeOf(app, supervisionEndpoints.getOutbound, {}, async (request) =>
    supervision.outboundOptions(requireStaff(request), request.query.member),
  );

  // The right is the account's (staff.outbound) as much as the role's: the service decides.
  routeOf(app, supervisionEndpoints.postOutbound, {}, async (request, reply) => {
    const sent = await supervision.outbound(requireStaff(request), request.body, request.ip);
    reply.status(201);
    return sent;
  });
}
