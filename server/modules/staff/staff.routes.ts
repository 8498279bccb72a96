import {
  auditQuerySchema,
  auditResponseSchema,
  createStaffSchema,
  endSessionSchema,
  staffListResponseSchema,
  staffLoginSchema,
  staffResponseSchema,
  staffSessionsResponseSchema,
  totpConfirmSchema,
  totpSetupResponseSchema,
} from '#contract/admin.ts';
import { errorBodySchema, okSchema } from '#contract/common.ts';
import { operatorEndpoints } from '#contract/endpoints/operator.ts';
import { routeOf } from '#server/lib/endpoint-route.ts';
import { NotFoundError, ValidationFailedError } from '#server/lib/errors.ts';
import type { ZodApp } from '#server/lib/zod-app.ts';
import { toStaff } from './staff.service.ts';
import { clearStaffCookie, requireStaff, setStaffCookie } from './staff.sessions.ts';

const errors = {
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
  409: errorBodySchema,
  422: errorBodySchema,
  429: errorBodySchema,
};
const tags = ['admin'];

/** Staff accounts, sign-in with TOTP, own sessions and the audit log (api-contract.md, Staff calls). */
export async function staffRoutes(app: ZodApp): Promise<void> {
  const service = app.deps.staff;

  app.post(
    '/api/admin/session.php',
    {
      config: { rateLimit: { max: 20, timeWindow: '1 minute' } },
      schema: {
        tags,
        summary:
          'Staff sign-in (e-mail, password, TOTP code once enrolled). 401 login_failed / otp_required / otp_used (a code used already)',
        body: staffLoginSchema,
        response: { 200: staffResponseSchema, ...errors },
      },
    },
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

  app.get(
    '/api/admin/session.php',
    {
      schema: {
        tags,
        summary: 'The signed-in staff member',
        response: { 200: staffResponseSchema, ...errors },
      },
    },
    async (request) => ({ staff: toStaff(requireStaff(request, null, { duringEnrolment: true })) }),
  );

  app.delete(
    '/api/admin/session.php',
    { schema: { tags, summary: 'Staff sign-out', response: { 200: okSchema, ...errors } } },
    async (request, reply) => {
      const actor = requireStaff(request, null, { duringEnrolment: true });
      await service.logout(actor, request.staff!.token, request.ip);
      clearStaffCookie(reply);
      return { ok: true as const };
    },
  );

  app.get(
    '/api/admin/sessions.php',
    {
      schema: {
        tags,
        summary: 'The own open sessions',
        response: { 200: staffSessionsResponseSchema, ...errors },
      },
    },
    async (request) => ({
      sessions: await service.sessions(
        requireStaff(request, null, { duringEnrolment: true }),
        request.staff!.sessionId,
      ),
    }),
  );

  app.delete(
    '/api/admin/sessions.php',
    {
      schema: {
        tags,
        summary: 'Ends one of the own sessions',
        body: endSessionSchema,
        response: { 200: okSchema, ...errors },
      },
    },
    async (request) => {
      const actor = requireStaff(request, null, { duringEnrolment: true });
      if (!(await service.endSession(actor, request.body.id, request.ip))) throw new NotFoundError();
      return { ok: true as const };
    },
  );

  app.post(
    '/api/admin/totp.php',
    {
      schema: {
        tags,
        summary: 'A new TOTP secret (with its QR code) for enrolment, not yet active',
        response: { 200: totpSetupResponseSchema, ...errors },
      },
    },
    async (request) => service.startTotp(requireStaff(request, null, { duringEnrolment: true })),
  );

  app.put(
    '/api/admin/totp.php',
    {
      config: { rateLimit: { max: 10, timeWindow: '1 minute' } },
      schema: {
        tags,
        summary: 'Confirms enrolment with a code from the new secret; 422 when the code is wrong',
        body: totpConfirmSchema,
        response: { 200: staffResponseSchema, ...errors },
      },
    },
    async (request) => ({
      staff: toStaff(
        await service.confirmTotp(
          requireStaff(request, null, { duringEnrolment: true }),
          request.body.code,
          request.ip,
        ),
      ),
    }),
  );

  app.get(
    '/api/admin/staff.php',
    { schema: { tags, summary: 'All staff (admin)', response: { 200: staffListResponseSchema, ...errors } } },
    async (request) => {
      requireStaff(request, 'manage_staff');
      return { staff: (await service.list()).map(toStaff) };
    },
  );

  app.post(
    '/api/admin/staff.php',
    {
      schema: {
        tags,
        summary: 'Creates a staff account (admin)',
        body: createStaffSchema,
        response: { 201: staffResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      const actor = requireStaff(request, 'manage_staff');
      const created = await service.create(actor, request.body, request.ip);
      reply.status(201);
      return { staff: toStaff(created) };
    },
  );

  routeOf(app, operatorEndpoints.putStaff, {}, async (request) => {
    const actor = requireStaff(request, 'manage_staff');
    for (const site of request.body.sites ?? []) {
      if (!(await app.deps.sites.byId(site))) throw new ValidationFailedError({ sites: 'invalid' });
    }
    return { staff: toStaff(await service.update(actor, request.body, request.ip)) };
  });

  app.get(
    '/api/admin/audit.php',
    {
      schema: {
        tags,
        summary: 'The audit log, newest first (admin)',
        querystring: auditQuerySchema,
        response: { 200: auditResponseSchema, ...errors },
      },
    },
    async (request) => {
      requireStaff(request, 'read_audit');
      return { entries: await service.auditLog(request.query) };
    },
  );
}
