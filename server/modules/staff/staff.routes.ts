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
      return { staff: await service.presentOne(staff) };
    },
  );

  routeOf(app, staffEndpoints.getSession, {}, async (request) => {
    const actor = requireStaff(request, null, { allow: 'any' });
    return { staff: toStaff(actor, request.staff!.hasPasskey) };
  });

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
          request.staff!.hasPasskey,
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
    const current = request.staff!.sessionId;
    if ('others' in request.body)
      return {
        ok: true as const,
        ended: await service.endOtherSessions(actor, actor.id, current, request.ip),
      };
    // The current session ends by signing out (DELETE session.php), which also clears the cookie.
    if (request.body.id === current) throw new ValidationFailedError({ id: 'invalid' });
    if (!(await service.endSession(actor, request.body.id, request.ip))) throw new NotFoundError();
    return { ok: true as const, ended: 1 };
  });

  routeOf(app, staffEndpoints.getStaffSessions, {}, async (request) => {
    requireStaff(request, 'manage_staff');
    const owner = await service.byId(request.query.staff);
    if (!owner) throw new NotFoundError();
    const current = owner.id === request.staff!.row.id ? request.staff!.sessionId : null;
    return { sessions: await service.sessions(owner, current) };
  });

  routeOf(app, staffEndpoints.deleteStaffSessions, {}, async (request) => {
    const actor = requireStaff(request, 'manage_staff');
    const owner = await service.byId(request.body.staff);
    if (!owner) throw new NotFoundError();
    // An admin's own current session is left alone here: signing out does that.
    const keep = owner.id === actor.id ? request.staff!.sessionId : null;
    if (request.body.id === undefined)
      return { ok: true as const, ended: await service.endOtherSessions(actor, owner.id, keep, request.ip) };
    if (request.body.id === keep) throw new ValidationFailedError({ id: 'invalid' });
    if (!(await service.endSessionOf(actor, owner.id, request.body.id, request.ip)))
      throw new NotFoundError();
    return { ok: true as const, ended: 1 };
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
        request.staff!.hasPasskey,
      ),
    }),
  );

  routeOf(app, staffEndpoints.getStaff, {}, async (request) => {
    requireStaff(request, 'manage_staff');
    return { staff: await service.present(await service.list()) };
  });

  routeOf(app, staffEndpoints.postStaff, {}, async (request, reply) => {
    const actor = requireStaff(request, 'manage_staff');
    const created = await service.create(actor, request.body, request.ip);
    reply.status(201);
    return { staff: toStaff(created, false) };
  });

  routeOf(app, staffEndpoints.putStaff, {}, async (request) => {
    const actor = requireStaff(request, 'manage_staff');
    for (const site of request.body.sites ?? []) {
      if (!(await app.deps.sites.byId(site))) throw new ValidationFailedError({ sites: 'invalid' });
    }
    return { staff: await service.presentOne(await service.update(actor, request.body, request.ip)) };
  });

  routeOf(app, staffEndpoints.getAudit, {}, async (request) => {
    requireStaff(request, 'read_audit');
    return { entries: await service.auditLog(request.query) };
  });
}
