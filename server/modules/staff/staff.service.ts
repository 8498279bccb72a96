import type { Staff, StaffRole, UpdateStaff } from '#contract/admin.ts';
import { staffSessionHours } from '#contract/admin.ts';
import { isLocale } from '#contract/locales.ts';
import type { Database, Executor } from '#server/db/client.ts';
import type { StaffRow } from '#server/db/schema/staff.ts';
import { addMinutes, type Clock } from '#server/lib/clock.ts';
import { AppError, NotFoundError, ValidationFailedError } from '#server/lib/errors.ts';
import { countryForIp } from '#server/lib/geoip.ts';
import { loadOtplib } from '#server/lib/lazy-packages.ts';
import { hashToken, newToken } from '#server/lib/tokens.ts';
import { parseUserAgent } from '#server/lib/user-agent.ts';
import { AccountLockedError, LoginFailedError } from '#server/modules/accounts/accounts.errors.ts';
import { type LockoutPolicy, LoginThrottle } from '#server/modules/accounts/login-throttle.ts';
import { hashPassword, verifyPassword } from '#server/modules/accounts/passwords.ts';
import { PasskeyFailedError } from '#server/modules/security/security.errors.ts';
import { ForbiddenError, OtpRequiredError, OtpUsedError } from './staff.errors.ts';
import * as repo from './staff.repository.ts';

/** Where a staff call comes from, for the audit trail. */
export type StaffRequestInfo = { ip: string; userAgent: string | null };

export type AuditInput = {
  staffId: number | null;
  action: string;
  object?: string | null;
  ip?: string | null;
  detail?: Record<string, string | number | boolean | null>;
};

/** Rights by role; a role lacking one gets 403 forbidden. */
export const staffRights = {
  operate: ['operator', 'lead', 'moderator', 'admin'],
  manage_staff: ['admin'],
  read_audit: ['admin'],
  /** Sites and companies (back office). */
  manage_sites: ['admin'],
  /** Fictional profiles and their photos (back office). */
  manage_profiles: ['moderator', 'admin'],
  /** Members, bans, their photos and the report queue. */
  moderate: ['moderator', 'admin'],
  /** Money and personal data of members: credit corrections, refunds, data exports. */
  member_money: ['admin'],
  /** Bundles and their prices, gifts, discount codes and the orders (back office, money and offers). */
  manage_offers: ['admin'],
  /** The dashboard's numbers and the traffic sources. */
  view_stats: ['admin'],
  /** The operators' reply templates (every operator reads those of their assignment). */
  manage_templates: ['admin'],
  /** Opener scripts and mass messages (server/modules/engagement/): the team lead runs them too. */
  engage: ['admin', 'lead'],
  /**
   * The supervisor board, the reports about fictional profiles (resolved with the operator who
   * wrote, never by a ban) and every operator's numbers (decision 052).
   */
  supervise: ['lead', 'admin'],
} as const satisfies Record<string, readonly StaffRole[]>;
export type StaffRight = keyof typeof staffRights;

export function hasRight(role: StaffRole, right: StaffRight): boolean {
  return (staffRights[right] as readonly StaffRole[]).includes(role);
}

/**
 * Every staff role may do nothing but enrol until two-factor sign-in is on: operators read private
 * conversations as much as admins do.
 */
export function mustEnrol(row: StaffRow, hasPasskey: boolean): boolean {
  return !row.totpSecret && !hasPasskey;
}

/**
 * Whether the staff member may start a conversation as a fictional profile: leads and admins, and
 * the operators an admin gave the right to (staff.outbound).
 */
export function mayStartConversations(row: StaffRow): boolean {
  return hasRight(row.role, 'supervise') || (row.outbound && hasRight(row.role, 'operate'));
}

export function toStaff(row: StaffRow, hasPasskey: boolean): Staff {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    role: row.role,
    totp_enabled: row.totpSecret !== null,
    passkey_enabled: hasPasskey,
    outbound: row.outbound,
    language: row.language,
    active: row.active,
    sites: row.sites,
    languages: row.languages,
    max_claims: row.maxClaims,
    password_change_required: row.passwordChangeRequired,
  };
}

const totpIssuer = 'Back office';

export class EmailTakenError extends AppError {
  override name = 'EmailTakenError';
  constructor() {
    super(409, 'email_exists');
  }
}

export class StaffService {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    lockout: LockoutPolicy,
  ) {
    this.throttle = new LoginThrottle(db, clock, lockout, {
      lock: repo.lockLoginThrottle,
      update: repo.updateLoginThrottle,
      remove: repo.deleteLoginThrottle,
    });
  }

  private readonly throttle: LoginThrottle<string>;

  async audit(db: Executor, entry: AuditInput): Promise<void> {
    await repo.insertAudit(db, {
      staffId: entry.staffId,
      action: entry.action,
      object: entry.object ?? null,
      ip: entry.ip ?? null,
      detail: entry.detail ?? null,
      at: this.clock.now(),
    });
  }

  /** The first admin from ADMIN_EMAIL/ADMIN_PASSWORD: created once, an existing account is left as it is. */
  async ensureAdmin(email: string, password: string, name = 'Admin'): Promise<boolean> {
    if (await repo.findStaffByEmail(this.db, email)) return false;
    const created = await repo.insertStaff(this.db, {
      email: email.trim(),
      name,
      role: 'admin',
      passwordHash: await hashPassword(password),
      createdAt: this.clock.now(),
    });
    if (created)
      await this.audit(this.db, { staffId: null, action: 'staff.create', object: `staff:${created.id}` });
    return created !== undefined;
  }

  async hasAccount(email: string): Promise<boolean> {
    return (await repo.findStaffByEmail(this.db, email)) !== undefined;
  }

  /**
   * Staff sign-in, throttled per address whether or not it is staff (staff_login_throttles). An
   * enrolled account also needs a fresh TOTP code: a missing code gives the try back, a wrong one
   * counts as a failure, and a right one whose time step signed in already (a double submit) is
   * refused with otp_used and given back.
   */
  async login(
    input: { email: string; password: string; otp?: string | undefined },
    info: StaffRequestInfo,
    /**
     * A second factor in place of the TOTP code (a passkey's assertion, staff-security.routes.ts):
     * checked after the password, a false counts as a failed try.
     */
    secondFactor?: (account: StaffRow) => Promise<boolean>,
  ): Promise<{ staff: StaffRow; token: string }> {
    const key = input.email.trim().toLowerCase();
    const attempt = await this.throttle.countTry(key);
    const found = await repo.findStaffByEmail(this.db, input.email.trim());
    const account = found?.active ? found : undefined;
    // Without an account the check hashes all the same: an unknown address answers and locks alike.
    const valid = await verifyPassword(account?.passwordHash ?? null, input.password);

    const fail = async (action: string, error: AppError): Promise<never> => {
      const lockedFor = await this.throttle.countFailure(key);
      if (account) await this.audit(this.db, { staffId: account.id, action, ip: info.ip });
      if (lockedFor !== null) throw new AccountLockedError(lockedFor);
      throw error;
    };
    if (!account || !valid) return fail('sign_in.failed', new LoginFailedError());
    if (secondFactor) {
      if (!(await secondFactor(account))) return fail('sign_in.passkey_failed', new PasskeyFailedError(401));
    } else if (account.totpSecret) {
      if (!input.otp) {
        // The first step of a two-step sign-in is no failure: the try is given back.
        await this.throttle.giveBack(key);
        throw new OtpRequiredError();
      }
      const step = await this.checkCode(account.totpSecret, input.otp);
      if (step === null) return fail('sign_in.otp_failed', new OtpRequiredError());
      if (!(await repo.advanceTotpStep(this.db, account.id, step))) {
        // A right code whose step was used (a double submit): it never signs in twice, and it is no
        // failed try either: the try is given back, as nothing was guessed.
        await this.throttle.giveBack(key);
        await this.audit(this.db, { staffId: account.id, action: 'sign_in.otp_reused', ip: info.ip });
        throw new OtpUsedError();
      }
    }
    const now = this.clock.now();
    return this.db.transaction(async (tx) => {
      await this.throttle.succeeded(tx, key, attempt);
      await repo.updateStaff(tx, account.id, { lastLoginAt: now });
      const token = newToken();
      await repo.insertStaffSession(tx, {
        tokenHash: hashToken(token),
        staffId: account.id,
        createdAt: now,
        expiresAt: new Date(now.getTime() + staffSessionHours * 3_600_000),
        userAgent: info.userAgent?.slice(0, 300) ?? null,
        ip: info.ip,
      });
      await this.audit(tx, { staffId: account.id, action: 'sign_in', ip: info.ip });
      return { staff: account, token };
    });
  }

  /** Sign-in throttles untouched for a day and not locked: the hourly job may forget them. */
  async pruneLoginThrottles(): Promise<number> {
    const now = this.clock.now();
    return repo.pruneLoginThrottles(this.db, addMinutes(now, -24 * 60), now);
  }

  /** The time step of a valid code (within ±30 s), or null. */
  private async checkCode(secret: string, code: string): Promise<number | null> {
    const { verify } = await loadOtplib();
    try {
      const result = await verify({
        secret,
        token: code,
        epoch: Math.floor(this.clock.now().getTime() / 1000),
        epochTolerance: 30,
      });
      return result.valid && 'timeStep' in result ? result.timeStep : null;
    } catch (error) {
      // A code otplib refuses to read (wrong length, not digits) is a wrong code; a secret it cannot
      // read is broken data and goes up.
      if (error instanceof Error && /^Token\w*Error$/.test(error.name)) return null;
      throw error;
    }
  }

  async resolveSession(
    token: string,
  ): Promise<{ staff: StaffRow; sessionId: number; hasPasskey: boolean } | null> {
    const found = await repo.findStaffSession(this.db, hashToken(token), this.clock.now());
    if (!found?.staff.active) return null;
    return { staff: found.staff, sessionId: found.session.id, hasPasskey: found.hasPasskey };
  }

  /** Staff accounts as the API shows them: whether each holds a passkey is read in one statement. */
  async present(rows: StaffRow[]): Promise<Staff[]> {
    const passkeys = await repo.withPasskeys(
      this.db,
      rows.map((row) => row.id),
    );
    return rows.map((row) => toStaff(row, passkeys.has(row.id)));
  }

  async presentOne(row: StaffRow): Promise<Staff> {
    const [one] = await this.present([row]);
    return one!;
  }

  async logout(actor: StaffRow, token: string, ip: string): Promise<void> {
    await repo.deleteStaffSession(this.db, hashToken(token));
    await this.audit(this.db, { staffId: actor.id, action: 'sign_out', ip });
  }

  /** The open sessions of a staff member (the own, or anyone's for an admin: `currentSessionId` null). */
  async sessions(actor: StaffRow, currentSessionId: number | null) {
    return (await repo.listStaffSessions(this.db, actor.id, this.clock.now())).map((session) => ({
      id: session.id,
      created_at: session.createdAt.toISOString(),
      expires_at: session.expiresAt.toISOString(),
      user_agent: session.userAgent,
      ip: session.ip,
      current: session.id === currentSessionId,
      device: parseUserAgent(session.userAgent),
      place: countryForIp(session.ip ?? undefined),
      last_used_at: session.createdAt.toISOString(),
    }));
  }

  async endSession(actor: StaffRow, sessionId: number, ip: string): Promise<boolean> {
    const ended = await repo.deleteStaffSessionById(this.db, actor.id, sessionId);
    if (ended)
      await this.audit(this.db, {
        staffId: actor.id,
        action: 'session.end',
        object: `session:${sessionId}`,
        ip,
      });
    return ended;
  }

  /**
   * Ends every session of the staff member but the current one (the own "sign out everywhere
   * else"), or, for an admin acting on another account (`keep` null), all of them.
   */
  async endOtherSessions(actor: StaffRow, ownerId: number, keep: number | null, ip: string): Promise<number> {
    return this.db.transaction(async (tx) => {
      const ended = await repo.deleteSessionsExcept(tx, ownerId, keep);
      await this.audit(tx, {
        staffId: actor.id,
        action: keep === null ? 'session.end_all' : 'session.end_others',
        object: `staff:${ownerId}`,
        ip,
        detail: { ended },
      });
      return ended;
    });
  }

  /** An admin ends one session of another staff member. */
  async endSessionOf(actor: StaffRow, ownerId: number, sessionId: number, ip: string): Promise<boolean> {
    const ended = await repo.deleteStaffSessionById(this.db, ownerId, sessionId);
    if (ended)
      await this.audit(this.db, {
        staffId: actor.id,
        action: 'session.end',
        object: `session:${sessionId}`,
        ip,
        detail: { staff: ownerId },
      });
    return ended;
  }

  async byId(id: number): Promise<StaffRow | undefined> {
    return repo.findStaffById(this.db, id);
  }

  /** A new TOTP secret for enrolment; it becomes active only once a code from it is confirmed. */
  async startTotp(actor: StaffRow): Promise<{ secret: string; otpauth_url: string; qr: string }> {
    if (actor.totpSecret) throw new ForbiddenError();
    const { generateSecret, generateURI } = await loadOtplib();
    const secret = generateSecret();
    await repo.updateStaff(this.db, actor.id, { totpPendingSecret: secret });
    const url = generateURI({ issuer: totpIssuer, label: actor.email, secret });
    // Loaded with the first enrolment, not at start.
    const { default: QRCode } = await import('qrcode');
    const svg = await QRCode.toString(url, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' });
    return {
      secret,
      otpauth_url: url,
      qr: `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`,
    };
  }

  async confirmTotp(actor: StaffRow, code: string, ip: string): Promise<StaffRow> {
    if (actor.totpSecret) throw new ForbiddenError();
    const pending = actor.totpPendingSecret;
    const step = pending ? await this.checkCode(pending, code) : null;
    if (!pending || step === null) throw new ValidationFailedError({ code: 'invalid' });
    return this.db.transaction(async (tx) => {
      await repo.updateStaff(tx, actor.id, {
        totpSecret: pending,
        totpPendingSecret: null,
        totpLastStep: step,
      });
      await this.audit(tx, { staffId: actor.id, action: 'totp.enrol', object: `staff:${actor.id}`, ip });
      return { ...actor, totpSecret: pending, totpPendingSecret: null, totpLastStep: step };
    });
  }

  /**
   * The staff member sets their own password: the current one is checked (422 current invalid), the
   * new one must differ (422 password same). It lifts password_change_required and ends the other
   * sessions, as whoever knew the old password may hold one of them.
   */
  async changePassword(
    actor: StaffRow,
    input: { current: string; password: string },
    sessionId: number,
    ip: string,
  ): Promise<StaffRow> {
    if (!(await verifyPassword(actor.passwordHash, input.current)))
      throw new ValidationFailedError({ current: 'old_password_wrong' });
    if (input.password === input.current) throw new ValidationFailedError({ password: 'same_password' });
    const passwordHash = await hashPassword(input.password);
    return this.db.transaction(async (tx) => {
      const updated = await repo.updateStaffReturning(tx, actor.id, {
        passwordHash,
        passwordChangeRequired: false,
      });
      if (!updated) throw new NotFoundError();
      await repo.deleteOtherStaffSessions(tx, actor.id, sessionId);
      await this.audit(tx, { staffId: actor.id, action: 'password.change', object: `staff:${actor.id}`, ip });
      return updated;
    });
  }

  async create(
    actor: StaffRow,
    input: { email: string; name: string; role: StaffRole; password: string; language?: string | undefined },
    ip: string,
  ): Promise<StaffRow> {
    const passwordHash = await hashPassword(input.password);
    return this.db.transaction(async (tx) => {
      const created = await repo.insertStaff(tx, {
        email: input.email.trim(),
        name: input.name,
        role: input.role,
        passwordHash,
        language: input.language && isLocale(input.language) ? input.language : 'en',
        // The admin knows this password: the account sets its own before it may do anything else.
        passwordChangeRequired: true,
        createdAt: this.clock.now(),
      });
      if (!created) throw new EmailTakenError();
      await this.audit(tx, { staffId: actor.id, action: 'staff.create', object: `staff:${created.id}`, ip });
      return created;
    });
  }

  /**
   * An admin changes a staff member's role, assignment (sites and member languages, empty: all),
   * claim limit (null: the default) or whether the account is active; a deactivated account's
   * sign-ins end. Admins cannot demote or deactivate themselves, so the back office always keeps
   * the admin who is working in it.
   */
  async update(actor: StaffRow, input: UpdateStaff, ip: string): Promise<StaffRow> {
    const { id, ...changes } = input;
    if (id === actor.id && ((changes.role && changes.role !== actor.role) || changes.active === false))
      throw new ValidationFailedError(changes.active === false ? { active: 'invalid' } : { role: 'invalid' });
    return this.db.transaction(async (tx) => {
      const updated = await repo.updateStaffReturning(tx, id, {
        ...(changes.role !== undefined ? { role: changes.role } : {}),
        ...(changes.sites !== undefined ? { sites: [...new Set(changes.sites)].sort((a, b) => a - b) } : {}),
        ...(changes.languages !== undefined ? { languages: [...new Set(changes.languages)].sort() } : {}),
        ...(changes.max_claims !== undefined ? { maxClaims: changes.max_claims } : {}),
        ...(changes.active !== undefined ? { active: changes.active } : {}),
        ...(changes.outbound !== undefined ? { outbound: changes.outbound } : {}),
      });
      if (!updated) throw new NotFoundError();
      if (changes.active === false) await repo.deleteStaffSessionsOf(tx, id);
      await this.audit(tx, {
        staffId: actor.id,
        action: 'staff.update',
        object: `staff:${id}`,
        ip,
        detail: {
          role: changes.role ?? null,
          sites: changes.sites?.join(',') ?? null,
          languages: changes.languages?.join(',') ?? null,
          max_claims: changes.max_claims ?? null,
          active: changes.active ?? null,
          outbound: changes.outbound ?? null,
        },
      });
      return updated;
    });
  }

  list(): Promise<StaffRow[]> {
    return repo.listStaff(this.db);
  }

  async auditLog(query: { staff?: number | undefined; page: number }) {
    const pageSize = 100;
    const rows = await repo.listAudit(this.db, {
      staffId: query.staff,
      limit: pageSize,
      offset: (query.page - 1) * pageSize,
    });
    return rows.map(({ entry, staffName }) => ({
      id: entry.id,
      at: entry.at.toISOString(),
      staff: entry.staffId !== null ? { id: entry.staffId, name: staffName ?? '' } : null,
      action: entry.action,
      object: entry.object,
      ip: entry.ip,
    }));
  }
}
