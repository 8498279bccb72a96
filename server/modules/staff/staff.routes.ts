import { staffEndpoints } from '#contract/endpoints/staff.ts';
import { routeOf } from '#server/lib/endpoint-route.ts';
import { NotFoundError, ValidationFailedError } from '#server/lib/errors.ts';
import type { ZodApp } from '#server/lib/zod-app.ts';
import { toStaff } from './staff.service.ts';
import { clearStaffCookie, requireStaff, setStaffCookie } from './staff.sessions.ts';

/**
 * Staff accounts, sign-in with TOTP, the own password and sessions, the audit log (api-contract.md,
 * Staff calls), each registered from its declaration in contract/endpoints/staff.ts.
 */
export async function staffRoutes(app: ZodApp): Promise<void> {
  const service = app.deps.staff;

  routeOf(
    app,
    staffEndpoints.postSession,
    { config: { rateLimit: { max: 20, timeWindow: '1 minute' } } },
    async (request, reply) => {
      const { staff, token } = await service.login(request.body, {
        ip: request.ip,
        userAgent: request.headers['user-agent'] ?? null,
      });
      const previous = request.staff?.token;
      // The earlier session ends best effort: the new sign-in stands either way.
      if (previous) {
        await app.deps.caught.bestEffort('staff.logout-previous', () =>
          service.logout(staff, previous, request.ip),
        );
      }
      setStaffCookie(request, reply, token);
      return { staff: toStaff(staff) };
    },
  );

  routeOf(app, staffEndpoints.getSession, {}, async (request) => ({
    staff: toStaff(requireStaff(request, null, { allow: 'any' })),
  }));

  routeOf(app, staffEndpoints.deleteSession, {}, async (request, reply) => {
    const actor = requireStaff(request, null, { allow: 'any' });
    await service.logout(actor, request.staff!.token, request.ip);
    clearStaffCookie(reply);
    return { ok: true as const };
  });

  routeOf(
    app,
    staffEndpoints.putPassword,
    { config: { rateLimit: { max: 10, timeWindow: '1 minute' } } },
    async (request) => {
      const actor = requireStaff(request, null, { allow: 'password' });
      return {
        staff: toStaff(
          await service.changePassword(actor, request.body, request.staff!.sessionId, request.ip),
        ),
      };
    },
  );

  routeOf(app, staffEndpoints.getSessions, {}, async (request) => ({
    sessions: await service.sessions(
      requireStaff(request, null, { allow: 'enrolment' }),
      request.staff!.sessionId,
    ),
  }));

  routeOf(app, staffEndpoints.deleteSessions, {}, async (request) => {
    const actor = requireStaff(request, null, { allow: 'enrolment' });
    if (!(await service.endSession(actor, request.body.id, request.ip))) throw new NotFoundError();
    return { ok: true as const };
  });

  routeOf(app, staffEndpoints.postTotp, {}, async (request) =>
    service.startTotp(requireStaff(request, null, { allow: 'enrolment' })),
  );

  routeOf(
    app,
    staffEndpoints.putTotp,
    { config: { rateLimit: { max: 10, timeWindow: '1 minute' } } },
    async (request) => ({
      staff: toStaff(
        await service.confirmTotp(
          requireStaff(request, null, { allow: 'enrolment' }),
          request.body.code,
          request.ip,
        ),
      ),
    }),
  );

  routeOf(app, staffEndpoints.getStaff, {}, async (request) => {
    requireStaff(request, 'manage_staff');
    return { staff: (await service.list()).map(toStaff) };
  });

  routeOf(app, staffEndpoints.postStaff, {}, async (request, reply) => {
    const actor = requireStaff(request, 'manage_staff');
    const created = await service.create(actor, request.body, request.ip);
    reply.status(201);
    return { staff: toStaff(created) };
  });

  routeOf(app, staffEndpoints.putStaff, {}, async (request) => {
    const actor = requireStaff(request, 'manage_staff');
    for (const site of request.body.sites ?? []) {
      if (!(await app.deps.sites.byId(site))) throw new ValidationFailedError({ sites: 'invalid' });
    }
    return { staff: toStaff(await service.update(actor, request.body, request.ip)) };
  });

  routeOf(app, staffEndpoints.getAudit, {}, async (request) => {
    requireStaff(request, 'read_audit');
    return { entries: await service.auditLog(request.query) };
  });
}
