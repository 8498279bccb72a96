import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { staffSessionHours } from '#contract/admin.ts';
import type { StaffRow } from '#server/db/schema/staff.ts';
import { announcePublicPagesChanged } from '#server/lib/public-pages.ts';
import {
  ForbiddenError,
  OtpEnrolmentRequiredError,
  PasswordChangeRequiredError,
  StaffRequiredError,
} from './staff.errors.ts';
import { hasRight, mustEnrol, type StaffRight } from './staff.service.ts';

export const staffCookieName = 'staff_sid';
/**
 * The staff cookie goes only to the back-office pages and their API, never to member pages. A
 * client-side navigation to `/admin` fetches `/admin.data` (React Router's single fetch), which the
 * path `/admin` does not cover: without its own path that fetch went out signed out.
 */
export const staffCookiePaths = ['/admin', '/admin.data', '/api/admin'] as const;

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in staff member on /api/admin/ calls, or null. */
    staff: { row: StaffRow; sessionId: number; token: string; hasPasskey: boolean } | null;
  }
}

const adminApiPrefix = '/api/admin/';
const operatorChatPaths = new Set(
  ['claim', 'next', 'reply', 'notes', 'typing', 'templates', 'persona'].map(
    (name) => `${adminApiPrefix}${name}.php`,
  ),
);
export const signInPath = '/api/admin/session.php';
/** The sign-in with a passkey as second factor (server/modules/security/staff-security.routes.ts). */
export const passkeySignInPath = '/api/admin/passkey-login.php';
/** Every back-office call needs a staff session but the sign-ins themselves (the OpenAPI document says so too). */
export function needsStaffSession(method: string, path: string): boolean {
  return (
    path.startsWith(adminApiPrefix) &&
    !(method === 'POST' && (path === signInPath || path === passkeySignInPath))
  );
}

const adminRoutesOf = new WeakMap<FastifyInstance, { method: string; url: string }[]>();

/** Every registered /api/admin/ route (a test checks that each refuses members). */
export function adminRoutes(app: FastifyInstance): { method: string; url: string }[] {
  return adminRoutesOf.get(app) ?? [];
}

/** Resolves the staff cookie on back-office API calls; records the back-office routes as they are added. */
export function registerStaffSessions(app: FastifyInstance): void {
  const routes: { method: string; url: string }[] = [];
  adminRoutesOf.set(app, routes);
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith(adminApiPrefix)) return;
    for (const method of [route.method].flat())
      if (method !== 'HEAD') routes.push({ method, url: route.url });
  });
  app.decorateRequest('staff', null);
  app.addHook('onRequest', async (request) => {
    if (!request.url.startsWith(adminApiPrefix)) return;
    const token = request.cookies[staffCookieName];
    if (token && token.length <= 100) {
      const found = await app.deps.staff.resolveSession(token);
      if (found)
        request.staff = { row: found.staff, sessionId: found.sessionId, token, hasPasskey: found.hasPasskey };
    }
    // Before any validation: members and visitors learn nothing about back-office calls but this.
    if (!request.staff && needsStaffSession(request.method, request.url.split('?')[0] ?? '')) {
      throw new StaffRequiredError();
    }
  });
  // A back-office write may change what visitors see (a site, a fictional profile, a text, a ban);
  // the operators' chat work (claims, replies, notes, typing) never does, and it is most of the writes.
  app.addHook('onSend', async (request) => {
    if (!request.staff || request.method === 'GET' || request.method === 'HEAD') return;
    if (operatorChatPaths.has(request.url.split('?')[0] ?? '')) return;
    await announcePublicPagesChanged(app.deps.bus);
  });
}

export function setStaffCookie(request: FastifyRequest, reply: FastifyReply, token: string): void {
  for (const path of staffCookiePaths) {
    reply.setCookie(staffCookieName, token, {
      httpOnly: true,
      sameSite: 'strict',
      secure: request.protocol === 'https',
      path,
      maxAge: staffSessionHours * 3600,
    });
  }
}

export function clearStaffCookie(reply: FastifyReply): void {
  for (const path of staffCookiePaths) reply.clearCookie(staffCookieName, { path });
}

/**
 * How far along its first sign-in an account must be for a call: `any` (who am I, sign out),
 * `password` (setting the own password, the first step of an account an admin created),
 * `enrolment` (the TOTP enrolment, once the password is the staff member's own), `ready` (work).
 */
export type StaffStage = 'any' | 'password' | 'enrolment' | 'ready';

/**
 * The staff member behind a back-office call: 403 staff_required for members and visitors,
 * 403 password_change_required until an account an admin created has set its own password, 403
 * otp_enrolment_required until the staff member (any role) has enrolled, 403 forbidden when the
 * role lacks the right. `allow` says which first-sign-in steps the call belongs to.
 */
export function requireStaff(
  request: FastifyRequest,
  right: StaffRight | null = 'operate',
  options: { allow?: StaffStage } = {},
): StaffRow {
  const found = request.staff;
  if (!found) throw new StaffRequiredError();
  const allow = options.allow ?? 'ready';
  if (allow === 'any') return found.row;
  if (allow !== 'password' && found.row.passwordChangeRequired) throw new PasswordChangeRequiredError();
  if (allow === 'ready' && mustEnrol(found.row, found.hasPasskey)) throw new OtpEnrolmentRequiredError();
  if (right && !hasRight(found.row.role, right)) throw new ForbiddenError();
  return found.row;
}
