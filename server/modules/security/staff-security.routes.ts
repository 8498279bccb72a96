import { staffPasskeyLoginSchema, staffSecurityEndpoints } from '#contract/endpoints/staff-security.ts';
import { registerPasskeyBodySchema } from '#contract/security.ts';
import type { StaffRow } from '#server/db/schema/staff.ts';
import { routeOf } from '#server/lib/endpoint-route.ts';
import { ValidationFailedError } from '#server/lib/errors.ts';
import type { ZodApp } from '#server/lib/zod-app.ts';
import { deviceLabel } from '#server/modules/accounts/accounts.service.ts';
import { toStaff } from '#server/modules/staff/staff.service.ts';
import { requireStaff, setStaffCookie } from '#server/modules/staff/staff.sessions.ts';
import { PasskeyFailedError } from './security.errors.ts';
import { relyingParty } from './security.routes.ts';

/**
 * A staff member's own passkeys, and the passkey as the second factor at sign-in: password, then
 * the passkey instead of the TOTP code (StaffService.login takes it as `secondFactor`).
 */
export async function staffSecurityRoutes(app: ZodApp): Promise<void> {
  const { security, staff } = app.deps;
  const ownerOf = (row: StaffRow) => ({ kind: 'staff' as const, id: row.id });

  routeOf(app, staffSecurityEndpoints.getPasskeys, {}, async (request) => ({
    // A passkey is a second factor of its own: it may be enrolled instead of TOTP.
    passkeys: await security.list(ownerOf(requireStaff(request, null, { allow: 'enrolment' }))),
  }));

  routeOf(
    app,
    staffSecurityEndpoints.postPasskeys,
    { config: { rateLimit: { max: 30, timeWindow: '15 minutes' } } },
    async (request, reply) => {
      const actor = requireStaff(request, null, { allow: 'enrolment' });
      reply.status(201);
      if (request.query.step === 'options') {
        return {
          options: await security.registrationOptions(ownerOf(actor), relyingParty(request), {
            name: actor.email,
            displayName: actor.name,
          }),
        };
      }
      const body = staffSecurityBody(request.body);
      const name = body.name || deviceLabel(request.headers['user-agent'] ?? null) || 'Passkey';
      const passkey = await security.register(ownerOf(actor), relyingParty(request), body.credential, name);
      await staff.audit(app.deps.db, {
        staffId: actor.id,
        action: 'passkey.add',
        object: `passkey:${passkey.id}`,
        ip: request.ip,
      });
      return { passkey };
    },
  );

  routeOf(app, staffSecurityEndpoints.deletePasskeys, {}, async (request) => {
    const actor = requireStaff(request, null);
    await security.remove(ownerOf(actor), request.body.id);
    await staff.audit(app.deps.db, {
      staffId: actor.id,
      action: 'passkey.remove',
      object: `passkey:${request.body.id}`,
      ip: request.ip,
    });
    return { ok: true as const };
  });

  routeOf(
    app,
    staffSecurityEndpoints.postPasskeyLogin,
    { config: { rateLimit: { max: 20, timeWindow: '1 minute' } } },
    async (request, reply) => {
      const rp = relyingParty(request);
      if (request.query.step === 'options') return { options: await security.loginOptions('staff', rp) };
      const body = staffPasskeyLoginSchema.safeParse(request.body);
      if (!body.success) throw new ValidationFailedError({ credential: 'required' });
      const { email, password, credential } = body.data;
      const { staff: signedIn, token } = await staff.login(
        { email, password },
        { ip: request.ip, userAgent: request.headers['user-agent'] ?? null },
        async (account) => {
          try {
            return (await security.verifyLogin('staff', rp, credential)) === account.id;
          } catch (error) {
            // expected: an assertion that does not verify is a failed second factor, counted as one
            if (error instanceof PasskeyFailedError) return false;
            throw error;
          }
        },
      );
      setStaffCookie(request, reply, token);
      return { staff: toStaff(signedIn, true) };
    },
  );
}

function staffSecurityBody(body: unknown) {
  const parsed = registerPasskeyBodySchema.safeParse(body);
  if (!parsed.success) throw new ValidationFailedError({ credential: 'required' });
  return parsed.data;
}
