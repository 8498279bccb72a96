import {
  auditQuerySchema,
  auditResponseSchema,
  createStaffSchema,
  endedSessionsSchema,
  endSessionSchema,
  endStaffSessionsSchema,
  staffListResponseSchema,
  staffLoginSchema,
  staffPasswordSchema,
  staffResponseSchema,
  staffSessionsOfQuerySchema,
  staffSessionsResponseSchema,
  totpConfirmSchema,
  totpSetupResponseSchema,
  updateStaffSchema,
} from '../admin.ts';
import { okSchema } from '../common.ts';
import { defineEndpoint } from '../endpoint.ts';
import { staffErrors } from './backoffice.ts';

const errors = staffErrors;
const tags = ['admin'] as const;
/** What any staff call but the sign-in may answer before the account is ready to work. */
const gates = ['staff_required', 'password_change_required', 'otp_enrolment_required'] as const;

/** Staff accounts, sign-in with TOTP, the own password and sessions, the audit log (api-contract.md, Staff calls). */
export const staffEndpoints = {
  postSession: defineEndpoint({
    method: 'POST',
    path: '/api/admin/session.php',
    tags,
    summary:
      'Staff sign-in (e-mail, password, TOTP code once enrolled). 401 login_failed / otp_required / otp_used (a code used already)',
    body: staffLoginSchema,
    responses: { 200: staffResponseSchema, ...errors },
    errors: ['login_failed', 'otp_required', 'otp_used', 'account_locked'],
  }),
  getSession: defineEndpoint({
    method: 'GET',
    path: '/api/admin/session.php',
    tags,
    summary:
      'The signed-in staff member (answers during enrolment and before the first password change, so the back office knows which step to show)',
    responses: { 200: staffResponseSchema, ...errors },
    errors: ['staff_required'],
  }),
  deleteSession: defineEndpoint({
    method: 'DELETE',
    path: '/api/admin/session.php',
    tags,
    summary: 'Staff sign-out',
    responses: { 200: okSchema, ...errors },
    errors: ['staff_required'],
  }),
  putPassword: defineEndpoint({
    method: 'PUT',
    path: '/api/admin/password.php',
    tags,
    summary:
      'Sets the own password (the current one is checked; 422 current invalid, password same). The one call an account an admin created may make first; the other sessions end',
    body: staffPasswordSchema,
    responses: { 200: staffResponseSchema, ...errors },
    errors: ['staff_required'],
  }),
  getSessions: defineEndpoint({
    method: 'GET',
    path: '/api/admin/sessions.php',
    tags,
    summary: 'The own open sessions',
    responses: { 200: staffSessionsResponseSchema, ...errors },
    errors: [...gates],
  }),
  deleteSessions: defineEndpoint({
    method: 'DELETE',
    path: '/api/admin/sessions.php',
    tags,
    summary: 'Ends one of the own sessions (`{id}`), or every other one (`{others: true}`)',
    body: endSessionSchema,
    responses: { 200: endedSessionsSchema, ...errors },
    errors: [...gates],
  }),
  getStaffSessions: defineEndpoint({
    method: 'GET',
    path: '/api/admin/staff-sessions.php',
    tags,
    summary: 'A staff member’s open sessions (admin)',
    query: staffSessionsOfQuerySchema,
    responses: { 200: staffSessionsResponseSchema, ...errors },
    errors: [...gates, 'forbidden'],
  }),
  deleteStaffSessions: defineEndpoint({
    method: 'DELETE',
    path: '/api/admin/staff-sessions.php',
    tags,
    summary:
      'Ends one session of a staff member (`id`) or all of them (admin); they end on every instance at once',
    body: endStaffSessionsSchema,
    responses: { 200: endedSessionsSchema, ...errors },
    errors: [...gates, 'forbidden'],
  }),
  postTotp: defineEndpoint({
    method: 'POST',
    path: '/api/admin/totp.php',
    tags,
    summary: 'A new TOTP secret (with its QR code) for enrolment, not yet active',
    responses: { 200: totpSetupResponseSchema, ...errors },
    errors: ['staff_required', 'password_change_required', 'forbidden'],
  }),
  putTotp: defineEndpoint({
    method: 'PUT',
    path: '/api/admin/totp.php',
    tags,
    summary: 'Confirms enrolment with a code from the new secret; 422 when the code is wrong',
    body: totpConfirmSchema,
    responses: { 200: staffResponseSchema, ...errors },
    errors: ['staff_required', 'password_change_required', 'forbidden'],
  }),
  getStaff: defineEndpoint({
    method: 'GET',
    path: '/api/admin/staff.php',
    tags,
    summary: 'All staff (admin)',
    responses: { 200: staffListResponseSchema, ...errors },
    errors: [...gates, 'forbidden'],
  }),
  postStaff: defineEndpoint({
    method: 'POST',
    path: '/api/admin/staff.php',
    tags,
    summary:
      'Creates a staff account (admin). The new account sets its own password at its first sign-in (password_change_required) and enrols TOTP',
    body: createStaffSchema,
    responses: { 201: staffResponseSchema, ...errors },
    errors: [...gates, 'forbidden', 'email_exists'],
  }),
  putStaff: defineEndpoint({
    method: 'PUT',
    path: '/api/admin/staff.php',
    tags,
    summary:
      'Changes a staff member’s role, the sites and member languages they answer (empty: all), how many conversations they may hold at once (null: the default) or whether the account is active, and whether an operator may start conversations as a fictional profile (`outbound`) (admin)',
    body: updateStaffSchema,
    responses: { 200: staffResponseSchema, ...errors },
    errors: [...gates, 'forbidden'],
  }),
  getAudit: defineEndpoint({
    method: 'GET',
    path: '/api/admin/audit.php',
    tags,
    summary: 'The audit log, newest first (admin)',
    query: auditQuerySchema,
    responses: { 200: auditResponseSchema, ...errors },
    errors: [...gates, 'forbidden'],
  }),
};
