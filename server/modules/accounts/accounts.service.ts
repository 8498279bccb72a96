import { countryName } from '#contract/countries.ts';
import { dateTimeFormat } from '#contract/intl-cache.ts';
import { isLocale, type Locale } from '#contract/locales.ts';
import type { DeviceSession } from '#contract/security.ts';
import type { User } from '#contract/users.ts';
import type { Database, Executor, Transaction } from '#server/db/client.ts';
import type { EmailTokenPurpose } from '#server/db/schema/accounts.ts';
import type { TrafficSource, UserRow } from '#server/db/schema/members.ts';
import type { SiteRow } from '#server/db/schema/sites.ts';
import { ageOn } from '#server/lib/age.ts';
import { addDays, addMinutes, type Clock } from '#server/lib/clock.ts';
import { NotFoundError, ValidationFailedError } from '#server/lib/errors.ts';
import type { EventBus } from '#server/lib/event-bus.ts';
import type { Translator } from '#server/lib/i18n.ts';
import type { MediaStorage } from '#server/lib/storage.ts';
import { hashToken, newToken } from '#server/lib/tokens.ts';
import { parseUserAgent } from '#server/lib/user-agent.ts';
import { changeCredits } from '#server/modules/credits/credits.service.ts';
import type { MailQueue } from '#server/modules/mail/mail.service.ts';
import { mailSiteOf, renderMail } from '#server/modules/mail/mail-templates.ts';
import {
  findProfileByUserId,
  rememberSessionProfile,
  sessionMainPhotoOf,
  sessionProfileOf,
} from '#server/modules/profiles/profiles.service.ts';
import type { SecurityService } from '#server/modules/security/security.service.ts';
import { recordActivation, recordActiveDay, recordSignup } from '#server/modules/tracking/attribution.ts';
import { verifiedTrafficSource } from '#server/modules/tracking/tracking.service.ts';
import {
  AccountLockedError,
  BannedError,
  EmailExistsError,
  EmailNotFoundError,
  LinkInvalidError,
  LoginFailedError,
  PendingDeletionError,
  ResetLimitError,
  SignupsClosedError,
} from './accounts.errors.ts';
import * as repo from './accounts.repository.ts';
import { type LockoutPolicy, LoginThrottle } from './login-throttle.ts';
import { hashPassword, isCommonPassword, verifyPassword } from './passwords.ts';
import { announceCreditsChanged, announceSessionsChanged, SessionCache } from './session-cache.ts';

export const sessionDays = 30;
export const deletionGraceDays = 14;
const activationDays = 7;
const resetLinkMinutes = 60;
const mailChangeHours = 24;
export const maxResetMailsPerDay = 3;

// ---- what other areas read and change of a member's row, on `db` or inside their own transaction

/**
 * The member's row, locked until the caller's transaction ends: every money and limit check reads it
 * here, so parallel sends, purchases and bans of one member pass one at a time. One prepared
 * statement; undefined for an unknown id.
 */
export function lockUser(tx: Transaction, userId: number): Promise<UserRow | undefined> {
  return repo.lockUser(tx, userId);
}

/**
 * The member's row as it is now, one statement, not locked (a decision that must still hold at
 * commit reads it with lockUser); undefined for an unknown id.
 */
export function findUserById(db: Executor, userId: number): Promise<UserRow | undefined> {
  return repo.findUserById(db, userId);
}

/** Keeps the member's customer at the payment provider (mandates and checkouts reuse it), one statement. */
export async function setPaymentCustomer(db: Executor, userId: number, customerId: string): Promise<void> {
  await repo.updateUser(db, userId, { paymentCustomerId: customerId });
}

/**
 * Marks the member as one who paid, one statement; inside the settlement's transaction it commits with
 * the credits bought.
 */
export async function markPaidUser(db: Executor, userId: number): Promise<void> {
  await repo.updateUser(db, userId, { paidUser: true });
}

/** Marks the member whose payment was charged back, for staff to see beside them. */
export async function flagChargeback(db: Executor, userId: number, at: Date): Promise<void> {
  await repo.updateUser(db, userId, { chargebackAt: at });
}

/**
 * Ends every session of the member in the caller's transaction, one statement: the next request is
 * refused on every instance once it commits. Cached sessions go when the caller announces the change
 * (announceSessionsChanged) after the commit.
 */
export async function endSessionsOfUser(tx: Transaction, userId: number): Promise<void> {
  await repo.deleteSessionsOfUser(tx, userId);
}

/** Who asks, on which site, in which language: what every use case needs from the request. */
export type RequestContext = {
  site: SiteRow;
  locale: Locale;
  baseUrl: string;
  /** The country for a new member: the visitor's if the site serves it, else the site's first. */
  country: string;
  userAgent: string | null;
  /** The visitor's own country by GeoIP (null when unknown): where the device list says a sign-in came from. */
  clientCountry?: string | null;
  /** The long-lived device cookie: a sign-in from a device the member never used mails them. */
  deviceToken?: string | null;
};

/** What a new session records of the device it is for. */
type DeviceInfo = { userAgent: string | null; clientCountry?: string | null };

/** "Chrome · Windows": product names, the same in every language. */
export function deviceLabel(userAgent: string | null): string | null {
  const { browser, os } = parseUserAgent(userAgent);
  const parts = [browser, os].filter((part): part is string => part !== null);
  return parts.length > 0 ? parts.join(' · ') : null;
}

export type SignupInput = {
  email: string;
  name: string;
  password: string;
  date_of_birth: string;
  signup_message?: string | undefined;
  tracking?: TrafficSource | undefined;
};

function cleanTracking(tracking: TrafficSource | undefined): TrafficSource | null {
  if (!tracking) return null;
  const entries = Object.entries(tracking).filter(
    ([, value]) => typeof value === 'string' && value.trim() !== '',
  );
  return entries.length > 0 ? (Object.fromEntries(entries) as TrafficSource) : null;
}

/** One throttle per site and address, whatever its case. */
function throttleKey(siteId: number, email: string): { siteId: number; email: string } {
  return { siteId, email: email.trim().toLowerCase() };
}

function isUniqueViolation(error: unknown): boolean {
  const code =
    (error as { code?: string; cause?: { code?: string } })?.code ??
    (error as { cause?: { code?: string } })?.cause?.code;
  return code === '23505';
}

/** A member who has just confirmed the address (AccountsService.onActivated). */
export type ActivatedMember = { userId: number; siteId: number; language: string; at: Date };

export class AccountsService {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly mail: MailQueue,
    private readonly translator: Translator,
    private readonly storage: MediaStorage,
    lockout: LockoutPolicy,
    private readonly security: SecurityService,
  ) {
    this.throttle = new LoginThrottle(db, clock, lockout, {
      lock: repo.lockLoginThrottle,
      update: repo.updateLoginThrottle,
      remove: repo.deleteLoginThrottle,
    });
  }

  private readonly throttle: LoginThrottle<repo.LoginThrottleKey>;
  /** Off (TTL 0) until app.ts hands in the configured one. */
  private sessionCache = new SessionCache(0);
  private bus: EventBus | null = null;

  /**
   * Told inside the activation's transaction that a member confirmed the address and became active:
   * the engagement module schedules its opener scripts there (wired in app-services.ts), so an
   * activation and its scheduled first contact commit together or not at all.
   */
  onActivated: ((tx: Transaction, member: ActivatedMember) => Promise<void>) | null = null;

  // ---- the member as the API shows them

  async toUser(user: UserRow, site: SiteRow): Promise<User> {
    const profile = await sessionProfileOf(this.db, user);
    const photo = profile ? await sessionMainPhotoOf(this.db, user, profile.id) : undefined;
    const found = profile ? { profile } : undefined;
    return {
      id: user.id,
      email: user.email ?? '',
      status: user.status === 'deleted' ? 'pending_deletion' : user.status,
      credits: user.credits,
      paid_user: user.paidUser,
      trafficsource: user.trafficsource ?? null,
      signup_date: user.signupDate.toISOString(),
      fictional_icon: true,
      language: user.language,
      notifications_disabled: user.notificationsDisabled,
      profile: {
        id: found?.profile.id ?? 0,
        name: found?.profile.name ?? '',
        country: found?.profile.country ?? site.countries[0] ?? '',
        status: found?.profile.status ?? 'disabled',
        complete: Boolean(
          found?.profile.gender &&
            found.profile.seeking &&
            (found.profile.about || found.profile.interests.length > 0),
        ),
        main_image: photo
          ? {
              filename: this.storage.url(photo.mainKey, site.cdnPrefix),
              thumb_filename: this.storage.url(photo.thumbKey, site.cdnPrefix),
              match: this.storage.url(photo.mainKey, site.cdnPrefix),
            }
          : null,
      },
    };
  }

  // ---- sessions

  private async createSession(
    db: Executor,
    userId: number,
    device: DeviceInfo,
    endTokenHash: string | null = null,
  ): Promise<string> {
    const token = newToken();
    const now = this.clock.now();
    await repo.insertSession(db, {
      tokenHash: hashToken(token),
      userId,
      at: now,
      expiresAt: addDays(now, sessionDays),
      userAgent: device.userAgent?.slice(0, 300) ?? null,
      country: device.clientCountry ?? null,
      endTokenHash,
    });
    await recordActiveDay(db, userId, now);
    return token;
  }

  /**
   * A sign-in's session. A device the member has not signed in from before (its cookie unknown)
   * gets a mail in the member's language, with a link that ends this session; the sign-up's device
   * is known from the start.
   */
  private async signInSession(
    tx: Executor,
    ctx: RequestContext,
    user: UserRow,
    options: { silent?: boolean } = {},
  ): Promise<string> {
    const now = this.clock.now();
    const isNew = ctx.deviceToken
      ? await repo.rememberDevice(tx, user.id, hashToken(ctx.deviceToken), now)
      : true;
    if (!isNew || options.silent || !user.email) return this.createSession(tx, user.id, ctx);
    const endToken = newToken();
    const sessionToken = await this.createSession(tx, user.id, ctx, hashToken(endToken));
    const locale: Locale = isLocale(user.language) ? user.language : 'en';
    await this.sendMail(
      tx,
      ctx,
      { email: user.email, language: locale, name: await this.profileName(tx, user.id) },
      'newDevice',
      {
        actionUrl: `${ctx.baseUrl}/api/end-session.php?token=${endToken}`,
        params: {
          device: deviceLabel(ctx.userAgent) ?? this.translator.t(locale, 'mail:newDevice.unknownDevice'),
          place: ctx.clientCountry
            ? countryName(ctx.clientCountry, locale)
            : this.translator.t(locale, 'mail:newDevice.unknownPlace'),
          time: dateTimeFormat(locale, { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' }).format(
            now,
          ),
        },
      },
    );
    return sessionToken;
  }

  // ---- the member's signed-in devices

  async listSessions(user: UserRow, currentToken: string | undefined): Promise<DeviceSession[]> {
    const current = currentToken ? hashToken(currentToken) : null;
    const rows = await repo.listSessionsOfUser(this.db, user.id, this.clock.now());
    return rows.map((row) => ({
      id: row.id,
      current: row.tokenHash === current,
      device: parseUserAgent(row.userAgent),
      place: row.country,
      created_at: row.createdAt.toISOString(),
      last_used_at: row.lastSeenAt.toISOString(),
    }));
  }

  /**
   * Ends one of the member's sessions, or every other one. The rows go at once; the cached sessions
   * are dropped on every instance over the event bus (memberChanged), so the device is signed out
   * wherever its next request lands.
   */
  async endSessions(
    user: UserRow,
    currentToken: string | undefined,
    which: { id: number } | { others: true },
  ) {
    if ('id' in which) {
      if (!(await repo.deleteSessionOfUserById(this.db, user.id, which.id))) throw new NotFoundError();
    } else {
      await repo.deleteSessionsOfUser(this.db, user.id, currentToken ? hashToken(currentToken) : undefined);
    }
    await this.memberChanged(user.id);
  }

  /** The new-device mail's link: ends the session it was sent for; false for a used or unknown link. */
  async endSessionByLink(token: string): Promise<boolean> {
    const userId = await repo.deleteSessionByEndToken(this.db, hashToken(token));
    if (userId === undefined) return false;
    await this.memberChanged(userId);
    return true;
  }

  /**
   * Signs in the member a verified passkey belongs to, as a password sign-in does (a new session id,
   * the new-device mail); the passkey stands for the password, so the address throttle is not asked.
   */
  async loginWithPasskey(
    ctx: RequestContext,
    userId: number,
    previousSessionToken?: string,
  ): Promise<{ user: UserRow; sessionToken: string }> {
    const user = await repo.findUserById(this.db, userId);
    if (!user || user.status === 'deleted' || user.siteId !== ctx.site.id) throw new LoginFailedError();
    if (user.status === 'pending_deletion') throw new PendingDeletionError(403);
    if (user.status === 'banned') throw new BannedError();
    const now = this.clock.now();
    return this.db.transaction(async (tx) => {
      await repo.updateUser(tx, user.id, { lastLoginAt: now });
      if (previousSessionToken) await repo.deleteSession(tx, hashToken(previousSessionToken));
      const sessionToken = await this.signInSession(tx, ctx, user);
      return { user, sessionToken };
    });
  }

  /** The member behind a session cookie; the session's 30 days start again at most once an hour. */
  async resolveSession(token: string): Promise<UserRow | null> {
    // The cache is keyed by the cookie itself (it never leaves this process): a hit hashes nothing.
    const cached = this.sessionCache.get(token);
    if (cached) {
      rememberSessionProfile(cached.user, cached.own);
      return cached.user;
    }
    const now = this.clock.now();
    const tokenHash = hashToken(token);
    const mark = this.sessionCache.mark();
    const found = await repo.findSession(this.db, tokenHash, now);
    if (
      !found ||
      found.user.status === 'deleted' ||
      found.user.status === 'pending_deletion' ||
      found.user.status === 'banned'
    )
      return null;
    // A new (UTC) day counts the member as active that day (the dashboard's active members).
    const newDay = found.session.lastSeenAt.toISOString().slice(0, 10) !== now.toISOString().slice(0, 10);
    if (newDay || now.getTime() - found.session.lastSeenAt.getTime() > 3_600_000) {
      await repo.touchSession(this.db, tokenHash, now, addDays(now, sessionDays));
      if (newDay) await recordActiveDay(this.db, found.user.id, now);
    }
    // The profile came with the session: read-only calls of this request use it (sessionProfileOf).
    const own = { profile: found.profile, mainPhoto: found.mainPhoto };
    rememberSessionProfile(found.user, own);
    this.sessionCache.set(token, found.user, own, mark);
    return found.user;
  }

  /** Caches resolved sessions for a few seconds; `bus` carries the drops to every instance. */
  cacheSessions(cache: SessionCache, bus: EventBus): void {
    this.sessionCache = cache;
    this.bus = bus;
  }

  /** The member's row or sessions changed: no instance answers from a cached session of theirs any more. */
  async memberChanged(userId: number): Promise<void> {
    if (!this.sessionCache.enabled) return;
    this.sessionCache.dropUser(userId);
    if (this.bus) await announceSessionsChanged(this.bus, userId);
  }

  /**
   * The member spent credits on a call of their own and nothing else of their row changed: the cached
   * sessions keep their row with the new balance, on every instance, instead of being dropped.
   */
  async creditsChanged(userId: number, credits: number): Promise<void> {
    if (!this.sessionCache.enabled) return;
    this.sessionCache.updateCredits(userId, credits);
    if (this.bus)
      await announceCreditsChanged(this.bus, { userId, credits, origin: this.sessionCache.origin });
  }

  async logout(token: string): Promise<void> {
    const userId = await repo.deleteSession(this.db, hashToken(token));
    if (userId !== undefined) await this.memberChanged(userId);
  }

  // ---- mail

  private async sendMail(
    db: Executor,
    ctx: { site: SiteRow; baseUrl: string },
    to: { email: string; language: string; name?: string },
    kind: string,
    options: { actionUrl?: string; params?: Record<string, string | number>; paragraphs?: string[] } = {},
  ): Promise<void> {
    const locale: Locale = isLocale(to.language) ? to.language : 'en';
    const rendered = renderMail(this.translator, locale, mailSiteOf(ctx.site, ctx.baseUrl, locale), {
      kind,
      ...(options.actionUrl ? { actionUrl: options.actionUrl } : {}),
      ...(options.params ? { params: options.params } : {}),
      ...(options.paragraphs ? { paragraphs: options.paragraphs } : {}),
      ...(to.name ? { recipientName: to.name } : {}),
    });
    await this.mail.enqueue(db, { to: to.email, kind, ...rendered });
  }

  private async issueToken(
    db: Executor,
    userId: number,
    purpose: EmailTokenPurpose,
    expiresAt: Date,
    newEmail?: string,
  ): Promise<string> {
    const token = newToken();
    await repo.insertEmailToken(db, {
      userId,
      purpose,
      tokenHash: hashToken(token),
      at: this.clock.now(),
      expiresAt,
      ...(newEmail ? { newEmail } : {}),
    });
    return token;
  }

  private async profileName(db: Executor, userId: number): Promise<string | undefined> {
    return (await findProfileByUserId(db, userId))?.name;
  }

  // ---- signup and activation

  private async validateSignup(ctx: RequestContext, input: SignupInput): Promise<void> {
    const fields: Record<string, string> = {};
    const name = input.name.trim();
    if (name.toLowerCase() === input.email.trim().toLowerCase()) fields.name = 'name_is_email';
    else if (name.startsWith('@')) fields.name = 'name_starts_with_at';
    else if (!/^[\p{L}\p{N} ._-]+$/u.test(name)) fields.name = 'invalid_characters';
    if (await isCommonPassword(input.password, [input.email, name, input.email.split('@')[0] ?? ''])) {
      fields.password = 'common_password';
    }
    if (ageOn(input.date_of_birth, this.clock.now()) < ctx.site.minAge) fields.date_of_birth = 'min_age';
    if (Object.keys(fields).length > 0) throw new ValidationFailedError(fields, { min_age: ctx.site.minAge });
  }

  async signup(ctx: RequestContext, input: SignupInput): Promise<{ user: UserRow; sessionToken: string }> {
    const tracking = await verifiedTrafficSource(this.db, ctx.site.id, cleanTracking(input.tracking));
    if (ctx.site.signups === 'none' || (ctx.site.signups === 'with_trafficsource' && !tracking)) {
      throw new SignupsClosedError();
    }
    await this.validateSignup(ctx, input);
    await this.security.refuseBannedAddress(this.db, input.email);
    const existing = await repo.findUserByEmail(this.db, ctx.site.id, input.email);
    if (existing?.status === 'pending_deletion') throw new PendingDeletionError();
    if (existing) throw new EmailExistsError();

    const passwordHash = await hashPassword(input.password);
    const now = this.clock.now();
    try {
      return await this.db.transaction(async (tx) => {
        const user = await repo.insertMember(tx, {
          siteId: ctx.site.id,
          email: input.email.trim(),
          passwordHash,
          language: ctx.locale,
          trafficsource: tracking,
          signupMessage: input.signup_message?.trim() || null,
          at: now,
          profile: { name: input.name.trim(), birthdate: input.date_of_birth, country: ctx.country },
        });
        // The landing click's postback-ready record, committed with the member.
        await recordSignup(tx, user, now);
        let credits = user.credits;
        if (ctx.site.signupCredits > 0) {
          credits =
            (await changeCredits(tx, {
              userId: user.id,
              delta: ctx.site.signupCredits,
              reason: 'signup',
              reference: `signup:${user.id}`,
              at: now,
            })) ?? credits;
        }
        const token = await this.issueToken(tx, user.id, 'activation', addDays(now, activationDays));
        await this.sendMail(
          tx,
          ctx,
          { email: user.email!, language: ctx.locale, name: input.name.trim() },
          'activation',
          { actionUrl: `${ctx.baseUrl}/api/activate.php?token=${token}` },
        );
        const sessionToken = await this.signInSession(tx, ctx, user, { silent: true });
        return { user: { ...user, credits }, sessionToken };
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw new EmailExistsError();
      throw error;
    }
  }

  /**
   * The activation link: the member becomes active and the profile visible. The link is a GET, often
   * opened from the mail app without the session: the cached sessions are dropped here, not by the
   * write hook of the member's own calls.
   */
  async activate(token: string): Promise<boolean> {
    const activated = await this.db.transaction(async (tx) => {
      const used = await repo.consumeEmailToken(tx, 'activation', hashToken(token), this.clock.now());
      if (!used) return null;
      const user = await repo.lockUser(tx, used.userId);
      if (!user || user.status === 'deleted') return null;
      const now = this.clock.now();
      await repo.updateUser(tx, user.id, {
        emailConfirmedAt: user.emailConfirmedAt ?? now,
        ...(user.status === 'not_confirmed' ? { status: 'active' as const } : {}),
      });
      await repo.updateProfileOfUser(tx, user.id, { status: 'active' });
      await recordActivation(tx, user.id, now);
      await this.onActivated?.(tx, {
        userId: user.id,
        siteId: user.siteId,
        language: user.language,
        at: now,
      });
      return user.id;
    });
    if (activated === null) return false;
    await this.memberChanged(activated);
    return true;
  }

  async resendActivation(ctx: RequestContext, user: UserRow): Promise<void> {
    if (user.status !== 'not_confirmed' || !user.email) return;
    await this.db.transaction(async (tx) => {
      const now = this.clock.now();
      await repo.invalidateEmailTokens(tx, user.id, 'activation', now);
      const token = await this.issueToken(tx, user.id, 'activation', addDays(now, activationDays));
      await this.sendMail(
        tx,
        ctx,
        { email: user.email!, language: user.language, name: await this.profileName(tx, user.id) },
        'activation',
        { actionUrl: `${ctx.baseUrl}/api/activate.php?token=${token}` },
      );
    });
  }

  async completeSignup(
    user: UserRow,
    input: {
      gender: 'male' | 'female';
      seeking: 'male' | 'female' | 'both';
      countryregion?: string | undefined;
    },
  ): Promise<void> {
    const sexuality =
      input.seeking === 'both'
        ? 'bi'
        : input.seeking === input.gender
          ? input.gender === 'male'
            ? 'gay'
            : 'lesbian'
          : 'hetero';
    await repo.updateProfileOfUser(this.db, user.id, {
      gender: input.gender,
      seeking: input.seeking,
      sexuality,
      ...(input.countryregion ? { countryregion: input.countryregion } : {}),
    });
  }

  // ---- login

  /** A wrong password (or no such account): counted, and the answer says whether the address is now locked. */
  private async loginFailed(key: repo.LoginThrottleKey): Promise<never> {
    const lockedFor = await this.throttle.countFailure(key);
    if (lockedFor) throw new AccountLockedError(lockedFor);
    throw new LoginFailedError();
  }

  async login(
    ctx: RequestContext,
    email: string,
    password: string,
    previousSessionToken?: string,
  ): Promise<{ user: UserRow; sessionToken: string }> {
    const key = throttleKey(ctx.site.id, email);
    const attempt = await this.throttle.countTry(key);
    const found = await repo.findUserByEmail(this.db, ctx.site.id, email);
    const user = found && found.status !== 'deleted' ? found : undefined;
    // Without an account the check hashes all the same: an unknown address answers and locks alike.
    const valid = await verifyPassword(user?.passwordHash ?? null, password);
    if (!user || !valid) return this.loginFailed(key);
    if (user.status === 'pending_deletion') throw new PendingDeletionError(403);
    if (user.status === 'banned') throw new BannedError();
    const now = this.clock.now();
    return this.db.transaction(async (tx) => {
      await this.throttle.succeeded(tx, key, attempt);
      await repo.updateUser(tx, user.id, { lastLoginAt: now });
      // A new session id on every login: a session fixed before login is worth nothing after it.
      if (previousSessionToken) await repo.deleteSession(tx, hashToken(previousSessionToken));
      const sessionToken = await this.signInSession(tx, ctx, user);
      return { user, sessionToken };
    });
  }

  /** Throttles untouched for a day and not locked: the hourly job forgets them. */
  async pruneLoginThrottles(): Promise<number> {
    const now = this.clock.now();
    return repo.pruneLoginThrottles(this.db, addDays(now, -1), now);
  }

  async setLanguage(user: UserRow, language: string): Promise<UserRow> {
    if (!isLocale(language)) throw new ValidationFailedError({ language: 'invalid' });
    await repo.updateUser(this.db, user.id, { language });
    return { ...user, language };
  }

  // ---- password reset and change

  async requestPasswordReset(ctx: RequestContext, email: string): Promise<void> {
    const user = await repo.findUserByEmail(this.db, ctx.site.id, email);
    if (!user || user.status === 'deleted' || !user.email) throw new EmailNotFoundError();
    const now = this.clock.now();
    await this.db.transaction(async (tx) => {
      await repo.lockUser(tx, user.id);
      const sent = await repo.countEmailTokensSince(tx, user.id, 'password_reset', addDays(now, -1));
      if (sent >= maxResetMailsPerDay) throw new ResetLimitError();
      const token = await this.issueToken(tx, user.id, 'password_reset', addMinutes(now, resetLinkMinutes));
      await this.sendMail(
        tx,
        ctx,
        { email: user.email!, language: user.language, name: await this.profileName(tx, user.id) },
        'passwordReset',
        {
          actionUrl: `${ctx.baseUrl}/reset-password/do?token=${token}`,
          paragraphs: ['passwordReset.ignore'],
        },
      );
    });
  }

  private async checkNewPassword(password: string, confirmation: string, user: UserRow): Promise<void> {
    if (password !== confirmation)
      throw new ValidationFailedError({ password_confirmation: 'passwords_mismatch' });
    if (await isCommonPassword(password, [user.email ?? '', (user.email ?? '').split('@')[0] ?? ''])) {
      throw new ValidationFailedError({ password: 'common_password' });
    }
  }

  /** A valid reset link sets the password, lifts a lock, ends every other session and logs in here. */
  async resetPassword(
    ctx: RequestContext,
    token: string,
    password: string,
    confirmation: string,
  ): Promise<{ user: UserRow; sessionToken: string }> {
    if (password !== confirmation)
      throw new ValidationFailedError({ password_confirmation: 'passwords_mismatch' });
    const passwordHash = await hashPassword(password);
    const result = await this.db.transaction(async (tx) => {
      const used = await repo.consumeEmailToken(tx, 'password_reset', hashToken(token), this.clock.now());
      if (!used) throw new LinkInvalidError();
      const user = await repo.lockUser(tx, used.userId);
      if (!user || user.status === 'deleted') throw new LinkInvalidError();
      await this.checkNewPassword(password, confirmation, user);
      await repo.updateUser(tx, user.id, { passwordHash });
      if (user.email) await repo.deleteLoginThrottle(tx, throttleKey(user.siteId, user.email));
      await repo.invalidateEmailTokens(tx, user.id, 'password_reset', this.clock.now());
      await repo.deleteSessionsOfUser(tx, user.id);
      const sessionToken = await this.createSession(tx, user.id, ctx);
      return { user, sessionToken };
    });
    await this.memberChanged(result.user.id);
    return result;
  }

  async changePassword(
    user: UserRow,
    currentSessionToken: string,
    oldPassword: string,
    password: string,
    confirmation: string,
  ): Promise<void> {
    if (!(await verifyPassword(user.passwordHash, oldPassword))) {
      throw new ValidationFailedError({ old_password: 'old_password_wrong' });
    }
    await this.checkNewPassword(password, confirmation, user);
    const passwordHash = await hashPassword(password);
    await this.db.transaction(async (tx) => {
      await repo.updateUser(tx, user.id, { passwordHash });
      await repo.deleteSessionsOfUser(tx, user.id, hashToken(currentSessionToken));
    });
    await this.memberChanged(user.id);
  }

  // ---- e-mail change

  async requestMailChange(
    ctx: RequestContext,
    user: UserRow,
    newEmail: string,
    password: string,
  ): Promise<void> {
    if (!(await verifyPassword(user.passwordHash, password))) {
      throw new ValidationFailedError({ password: 'old_password_wrong' });
    }
    await this.security.refuseBannedAddress(this.db, newEmail);
    const existing = await repo.findUserByEmail(this.db, ctx.site.id, newEmail);
    if (existing?.status === 'pending_deletion') throw new PendingDeletionError();
    if (existing) throw new EmailExistsError();
    const now = this.clock.now();
    await this.db.transaction(async (tx) => {
      await repo.invalidateEmailTokens(tx, user.id, 'mail_change', now);
      const token = await this.issueToken(
        tx,
        user.id,
        'mail_change',
        addMinutes(now, mailChangeHours * 60),
        newEmail,
      );
      const name = await this.profileName(tx, user.id);
      await this.sendMail(tx, ctx, { email: newEmail, language: user.language, name }, 'mailChange', {
        actionUrl: `${ctx.baseUrl}/mail-change/do?token=${token}`,
      });
      if (user.email) {
        await this.sendMail(
          tx,
          ctx,
          { email: user.email, language: user.language, name },
          'mailChangeNotice',
          {
            params: { email: newEmail },
          },
        );
      }
    });
  }

  async confirmMailChange(token: string): Promise<void> {
    let changed: number | undefined;
    try {
      await this.db.transaction(async (tx) => {
        const used = await repo.consumeEmailToken(tx, 'mail_change', hashToken(token), this.clock.now());
        if (!used?.newEmail) throw new LinkInvalidError();
        const user = await repo.lockUser(tx, used.userId);
        if (!user || user.status === 'deleted') throw new LinkInvalidError();
        // Banned between the request and the click: the link no longer changes anything.
        await this.security.refuseBannedAddress(tx, used.newEmail);
        const taken = await repo.findUserByEmail(tx, user.siteId, used.newEmail);
        if (taken && taken.id !== user.id) throw new EmailExistsError();
        // Whoever can read the new mailbox has confirmed it as well.
        await repo.updateUser(tx, user.id, {
          email: used.newEmail,
          emailConfirmedAt: this.clock.now(),
          ...(user.status === 'not_confirmed' ? { status: 'active' as const } : {}),
        });
        if (user.status === 'not_confirmed') {
          await repo.updateProfileOfUser(tx, user.id, { status: 'active' });
          await recordActivation(tx, user.id, this.clock.now());
        }
        changed = user.id;
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw new EmailExistsError();
      throw error;
    }
    if (changed !== undefined) await this.memberChanged(changed);
  }

  // ---- deletion and reactivation

  async requestDeletion(ctx: RequestContext, user: UserRow, password: string): Promise<UserRow> {
    if (!(await verifyPassword(user.passwordHash, password))) {
      throw new ValidationFailedError({ password: 'old_password_wrong' });
    }
    return this.startDeletion(ctx, user);
  }

  /** Starts the 14 days of pending deletion (the member asked; or staff on the member's request). */
  async startDeletion(ctx: RequestContext, user: UserRow): Promise<UserRow> {
    const now = this.clock.now();
    const started = await this.db.transaction(async (tx) => {
      await repo.updateUser(tx, user.id, { status: 'pending_deletion', deletionRequestedAt: now });
      await repo.updateProfileOfUser(tx, user.id, { status: 'disabled' });
      await repo.deleteSessionsOfUser(tx, user.id);
      const token = await this.issueToken(tx, user.id, 'reactivation', addDays(now, deletionGraceDays));
      if (user.email) {
        await this.sendMail(
          tx,
          ctx,
          { email: user.email, language: user.language, name: await this.profileName(tx, user.id) },
          'deletion',
          { actionUrl: `${ctx.baseUrl}/api/reactivate.php?token=${token}` },
        );
      }
      return { ...user, status: 'pending_deletion' as const, deletionRequestedAt: now };
    });
    await this.memberChanged(user.id);
    return started;
  }

  private async restore(tx: Executor, user: UserRow, ctx: DeviceInfo) {
    const confirmed = user.emailConfirmedAt !== null;
    await repo.updateUser(tx, user.id, {
      status: confirmed ? 'active' : 'not_confirmed',
      deletionRequestedAt: null,
    });
    if (confirmed) await repo.updateProfileOfUser(tx, user.id, { status: 'active' });
    await repo.invalidateEmailTokens(tx, user.id, 'reactivation', this.clock.now());
    return this.createSession(tx, user.id, ctx);
  }

  /** The link in the deletion mail, valid for 14 days. */
  async reactivateByToken(
    token: string,
    userAgent: string | null,
  ): Promise<{ user: UserRow; sessionToken: string }> {
    return this.db.transaction(async (tx) => {
      const used = await repo.consumeEmailToken(tx, 'reactivation', hashToken(token), this.clock.now());
      if (!used) throw new LinkInvalidError();
      const user = await repo.lockUser(tx, used.userId);
      if (user?.status !== 'pending_deletion') throw new LinkInvalidError();
      const sessionToken = await this.restore(tx, user, { userAgent, clientCountry: null });
      return { user, sessionToken };
    });
  }

  /** Logging in during the 14 days offers this: the same credentials keep the account. */
  async reactivateByLogin(
    ctx: RequestContext,
    email: string,
    password: string,
  ): Promise<{ user: UserRow; sessionToken: string }> {
    const key = throttleKey(ctx.site.id, email);
    const attempt = await this.throttle.countTry(key);
    const found = await repo.findUserByEmail(this.db, ctx.site.id, email);
    const user = found?.status === 'pending_deletion' ? found : undefined;
    const valid = await verifyPassword(user?.passwordHash ?? null, password);
    if (!user || !valid) return this.loginFailed(key);
    return this.db.transaction(async (tx) => {
      await this.throttle.succeeded(tx, key, attempt);
      const sessionToken = await this.restore(tx, user, ctx);
      return { user, sessionToken };
    });
  }

  /** The deletion job: members pending deletion for over 14 days lose their personal data and photos. */
  async eraseExpiredDeletions(): Promise<number> {
    const before = addDays(this.clock.now(), -deletionGraceDays);
    let erased = 0;
    for (;;) {
      const keys: string[] = [];
      const count = await this.db.transaction(async (tx) => {
        const due = await repo.usersDueForErasure(tx, before, 50);
        for (const { id } of due) {
          keys.push(...(await repo.photoKeysOfUser(tx, id)));
          await repo.eraseMember(tx, id);
        }
        return due.length;
      });
      await Promise.all(keys.map((key) => this.storage.remove(key)));
      erased += count;
      if (count === 0) return erased;
    }
  }

  async touchActivity(userId: number): Promise<void> {
    await repo.updateProfileOfUser(this.db, userId, { lastActiveAt: this.clock.now() });
  }

  async reload(userId: number): Promise<UserRow | undefined> {
    return repo.findUserById(this.db, userId);
  }
}
