import { asc, eq } from 'drizzle-orm';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { generate } from 'otplib';
import { profiles } from '../../server/db/schema/members.ts';
import type { StaffRole } from '../../server/db/schema/staff.ts';
import { hashToken, newToken } from '../../server/lib/tokens.ts';
import { hashPassword } from '../../server/modules/accounts/passwords.ts';
import { insertStaff, insertStaffSession } from '../../server/modules/staff/staff.repository.ts';
import { staffCookieName } from '../../server/modules/staff/staff.sessions.ts';
import { nextIp, uniqueEmail } from './members.ts';

export const staffPassword = 'amber-Lantern-2077';

/** "staff_sid=…" from a sign-in answer, ready for a Cookie header. */
export function staffCookie(response: LightMyRequestResponse): string {
  const header = response.headers['set-cookie'];
  const cookies = Array.isArray(header) ? header : header ? [header] : [];
  const sid = cookies.find((cookie) => cookie.startsWith('staff_sid=') && !cookie.startsWith('staff_sid=;'));
  if (!sid) throw new Error(`No staff cookie in ${JSON.stringify(cookies)}`);
  return sid.split(';')[0]!;
}

/** The current TOTP code of a secret, at the given time. */
export function totpCode(secret: string, at = new Date()): Promise<string> {
  return generate({ secret, epoch: Math.floor(at.getTime() / 1000) });
}

export type TestStaff = { id: number; email: string; name: string; cookie: string; secret: string | null };

/** A staff account of the role, signed in; enrolled in TOTP unless `enrol` is false. */
export async function signedInStaff(
  app: FastifyInstance,
  role: StaffRole,
  options: { enrol?: boolean; name?: string; now?: () => Date } = {},
): Promise<TestStaff> {
  const email = uniqueEmail(role);
  const name = options.name ?? `${role[0]!.toUpperCase()}${role.slice(1)} ${email.split('.')[2]}`;
  const created = await insertStaff(app.deps.db, {
    email,
    name,
    role,
    passwordHash: await hashPassword(staffPassword),
    createdAt: new Date(),
  });
  // One address per staff member: the enrolment calls' rate limits count per address.
  const ip = nextIp();
  const login = await app.inject({
    method: 'POST',
    url: '/api/admin/session.php',
    remoteAddress: ip,
    payload: { email, password: staffPassword },
  });
  if (login.statusCode !== 200) throw new Error(`staff sign-in failed: ${login.statusCode} ${login.body}`);
  const cookie = staffCookie(login);
  let secret: string | null = null;
  if (options.enrol !== false) {
    const setup = await app.inject({
      method: 'POST',
      url: '/api/admin/totp.php',
      remoteAddress: ip,
      headers: { cookie },
    });
    secret = setup.json().secret as string;
    const confirm = await app.inject({
      method: 'PUT',
      url: '/api/admin/totp.php',
      remoteAddress: ip,
      headers: { cookie },
      payload: { code: await totpCode(secret, options.now?.()) },
    });
    if (confirm.statusCode !== 200) throw new Error(`enrolment failed: ${confirm.body}`);
  }
  return { id: created!.id, email, name, cookie, secret };
}

/** A new session of a staff member, as a Cookie header, without the sign-in (nor its TOTP code). */
export async function newStaffSession(
  app: FastifyInstance,
  staffId: number,
  at = new Date(),
): Promise<string> {
  const token = newToken();
  const now = at;
  await insertStaffSession(app.deps.db, {
    tokenHash: hashToken(token),
    staffId,
    createdAt: now,
    expiresAt: new Date(now.getTime() + 3_600_000),
    userAgent: null,
    ip: null,
  });
  return `${staffCookieName}=${token}`;
}

let fictionalCursor = 0;

/** A fictional profile of the demo seed no other test of this process has used yet. */
export async function freshFictionalProfile(app: FastifyInstance): Promise<{ id: number; name: string }> {
  const rows = await app.deps.db
    .select({ id: profiles.id, name: profiles.name })
    .from(profiles)
    .where(eq(profiles.fictional, true))
    .orderBy(asc(profiles.id))
    .offset(fictionalCursor++)
    .limit(1);
  if (!rows[0]) throw new Error('no fictional profile left');
  return rows[0];
}
