import { and, desc, eq, gt, isNull, lt, ne, or, sql } from 'drizzle-orm';
import { type Executor, preparedPerConnection } from '#server/db/client.ts';
import { mainPhotoLateral } from '#server/db/fragments.ts';
import { type EmailTokenPurpose, emailTokens, loginThrottles, sessions } from '#server/db/schema/accounts.ts';
import { messages } from '#server/db/schema/chats.ts';
import { profiles, type TrafficSource, users } from '#server/db/schema/members.ts';
import { photos } from '#server/db/schema/photos.ts';
import { knownDevices } from '#server/db/schema/security.ts';

export type UserUpdate = Partial<typeof users.$inferInsert>;

export async function findUserByEmail(db: Executor, siteId: number, email: string) {
  const [row] = await db
    .select()
    .from(users)
    .where(and(eq(users.siteId, siteId), sql`lower(${users.email}) = ${email.toLowerCase()}`))
    .limit(1);
  return row;
}

export async function findUserById(db: Executor, id: number) {
  const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1);
  return row;
}

const lockUserStatement = preparedPerConnection((db) =>
  db
    .select()
    .from(users)
    .where(eq(users.id, sql.placeholder('id')))
    .for('update')
    .prepare('lock_user'),
);

/** The member's row, locked until the transaction ends: every money and limit check reads it here. */
export async function lockUser(db: Executor, id: number) {
  const [row] = await lockUserStatement(db).execute({ id });
  return row;
}

export async function insertMember(
  db: Executor,
  member: {
    siteId: number;
    email: string;
    passwordHash: string;
    language: string;
    trafficsource: TrafficSource | null;
    signupMessage: string | null;
    at: Date;
    profile: { name: string; birthdate: string; country: string };
  },
) {
  const [user] = await db
    .insert(users)
    .values({
      siteId: member.siteId,
      email: member.email,
      passwordHash: member.passwordHash,
      status: 'not_confirmed',
      language: member.language,
      trafficsource: member.trafficsource,
      signupMessage: member.signupMessage,
      signupDate: member.at,
    })
    .returning();
  await db.insert(profiles).values({
    userId: user!.id,
    name: member.profile.name,
    birthdate: member.profile.birthdate,
    country: member.profile.country,
    status: 'disabled',
    lastActiveAt: member.at,
    createdAt: member.at,
  });
  return user!;
}

export async function updateUser(db: Executor, id: number, update: UserUpdate): Promise<void> {
  await db.update(users).set(update).where(eq(users.id, id));
}

export async function updateProfileOfUser(
  db: Executor,
  userId: number,
  update: Partial<typeof profiles.$inferInsert>,
): Promise<void> {
  await db.update(profiles).set(update).where(eq(profiles.userId, userId));
}

export async function insertSession(
  db: Executor,
  session: {
    tokenHash: string;
    userId: number;
    at: Date;
    expiresAt: Date;
    userAgent: string | null;
    country: string | null;
    endTokenHash: string | null;
  },
): Promise<number> {
  const [row] = await db
    .insert(sessions)
    .values({
      tokenHash: session.tokenHash,
      userId: session.userId,
      createdAt: session.at,
      lastSeenAt: session.at,
      expiresAt: session.expiresAt,
      userAgent: session.userAgent,
      country: session.country,
      endTokenHash: session.endTokenHash,
    })
    .returning({ id: sessions.id });
  return row!.id;
}

/** The member's sessions that have not expired, the most recently used first. */
export async function listSessionsOfUser(db: Executor, userId: number, now: Date) {
  return db
    .select({
      id: sessions.id,
      tokenHash: sessions.tokenHash,
      createdAt: sessions.createdAt,
      lastSeenAt: sessions.lastSeenAt,
      userAgent: sessions.userAgent,
      country: sessions.country,
    })
    .from(sessions)
    .where(and(eq(sessions.userId, userId), gt(sessions.expiresAt, now)))
    .orderBy(desc(sessions.lastSeenAt), desc(sessions.id));
}

/** Ends one of the member's sessions by its id; false when the member has none of that id. */
export async function deleteSessionOfUserById(db: Executor, userId: number, id: number): Promise<boolean> {
  const rows = await db
    .delete(sessions)
    .where(and(eq(sessions.userId, userId), eq(sessions.id, id)))
    .returning({ id: sessions.id });
  return rows.length > 0;
}

/** Ends the session a new-device mail's link names; returns its member. */
export async function deleteSessionByEndToken(
  db: Executor,
  endTokenHash: string,
): Promise<number | undefined> {
  const [row] = await db
    .delete(sessions)
    .where(eq(sessions.endTokenHash, endTokenHash))
    .returning({ userId: sessions.userId });
  return row?.userId;
}

/**
 * Remembers a device of the member; true when it was not known yet. The insert decides (its primary
 * key), so two sign-ins from one new device at once mail once.
 */
export async function rememberDevice(db: Executor, userId: number, deviceHash: string, at: Date) {
  const rows = await db
    .insert(knownDevices)
    .values({ userId, deviceHash, createdAt: at })
    .onConflictDoNothing()
    .returning({ userId: knownDevices.userId });
  return rows.length > 0;
}

/** The session lookup runs on nearly every request: built once per database, as a prepared statement. */
function prepareSessionLookup(db: Executor) {
  // The member's own main photo, under screening or held too: it shows only to them.
  const mainPhoto = mainPhotoLateral(db, profiles.id, { forOwner: true });
  return db
    .select({ session: sessions, user: users, profile: profiles, mainPhoto: mainPhoto.fields })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .leftJoin(profiles, eq(profiles.userId, users.id))
    .leftJoinLateral(mainPhoto.subquery, sql`true`)
    .where(
      and(
        eq(sessions.tokenHash, sql.placeholder('tokenHash')),
        gt(sessions.expiresAt, sql.placeholder('now')),
      ),
    )
    .limit(1)
    .prepare('session_lookup');
}
const sessionLookups = new WeakMap<Executor, ReturnType<typeof prepareSessionLookup>>();

/** The session with its member, the member's profile (null before it exists) and its main photo, in one statement. */
export async function findSession(db: Executor, tokenHash: string, now: Date) {
  let lookup = sessionLookups.get(db);
  if (!lookup) {
    lookup = prepareSessionLookup(db);
    sessionLookups.set(db, lookup);
  }
  const [row] = await lookup.execute({ tokenHash, now: now.toISOString() });
  return row;
}

export async function touchSession(
  db: Executor,
  tokenHash: string,
  at: Date,
  expiresAt: Date,
): Promise<void> {
  await db.update(sessions).set({ lastSeenAt: at, expiresAt }).where(eq(sessions.tokenHash, tokenHash));
}

/** Ends a session; returns its member (undefined when there was none). */
export async function deleteSession(db: Executor, tokenHash: string): Promise<number | undefined> {
  const [row] = await db
    .delete(sessions)
    .where(eq(sessions.tokenHash, tokenHash))
    .returning({ userId: sessions.userId });
  return row?.userId;
}

export async function deleteSessionsOfUser(
  db: Executor,
  userId: number,
  exceptTokenHash?: string,
): Promise<void> {
  await db
    .delete(sessions)
    .where(
      exceptTokenHash
        ? and(eq(sessions.userId, userId), ne(sessions.tokenHash, exceptTokenHash))
        : eq(sessions.userId, userId),
    );
}

export async function insertEmailToken(
  db: Executor,
  token: {
    userId: number;
    purpose: EmailTokenPurpose;
    tokenHash: string;
    at: Date;
    expiresAt: Date;
    newEmail?: string;
  },
): Promise<void> {
  await db.insert(emailTokens).values({
    userId: token.userId,
    purpose: token.purpose,
    tokenHash: token.tokenHash,
    createdAt: token.at,
    expiresAt: token.expiresAt,
    newEmail: token.newEmail ?? null,
  });
}

/** Marks a valid token used and returns it; an expired, used or unknown token returns undefined. */
export async function consumeEmailToken(
  db: Executor,
  purpose: EmailTokenPurpose,
  tokenHash: string,
  now: Date,
) {
  const [row] = await db
    .update(emailTokens)
    .set({ usedAt: now })
    .where(
      and(
        eq(emailTokens.tokenHash, tokenHash),
        eq(emailTokens.purpose, purpose),
        isNull(emailTokens.usedAt),
        gt(emailTokens.expiresAt, now),
      ),
    )
    .returning();
  return row;
}

export async function countEmailTokensSince(
  db: Executor,
  userId: number,
  purpose: EmailTokenPurpose,
  since: Date,
): Promise<number> {
  const [row] = await db
    .select({ value: sql<number>`count(*)::int` })
    .from(emailTokens)
    .where(
      and(eq(emailTokens.userId, userId), eq(emailTokens.purpose, purpose), gt(emailTokens.createdAt, since)),
    );
  return row?.value ?? 0;
}

export async function invalidateEmailTokens(
  db: Executor,
  userId: number,
  purpose: EmailTokenPurpose,
  at: Date,
) {
  await db
    .update(emailTokens)
    .set({ usedAt: at })
    .where(and(eq(emailTokens.userId, userId), eq(emailTokens.purpose, purpose), isNull(emailTokens.usedAt)));
}

export async function usersDueForErasure(db: Executor, requestedBefore: Date, limit: number) {
  return db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.status, 'pending_deletion'), lt(users.deletionRequestedAt, requestedBefore)))
    .limit(limit)
    .for('update', { skipLocked: true });
}

/** Erases a member's personal data; the user row stays (anonymous) for the payment records. */
export async function eraseMember(db: Executor, userId: number): Promise<void> {
  await db.delete(profiles).where(eq(profiles.userId, userId));
  await db.delete(sessions).where(eq(sessions.userId, userId));
  await db.delete(emailTokens).where(eq(emailTokens.userId, userId));
  await db
    .update(users)
    .set({
      status: 'deleted',
      email: null,
      passwordHash: null,
      signupMessage: null,
      trafficsource: null,
      notificationsDisabled: [],
    })
    .where(eq(users.id, userId));
}

export async function photoKeysOfUser(db: Executor, userId: number): Promise<string[]> {
  const rows = await db
    .select({
      main: photos.mainKey,
      thumb: photos.thumbKey,
      blurred: photos.blurredKey,
      blurredThumb: photos.blurredThumbKey,
    })
    .from(photos)
    .innerJoin(profiles, eq(profiles.id, photos.profileId))
    .where(eq(profiles.userId, userId));
  // Photos sent in chats from the device live only in their messages, which go with the profile.
  const sent = await db
    .select({ main: messages.photoKey, thumb: messages.photoThumbKey })
    .from(messages)
    .innerJoin(profiles, eq(profiles.id, messages.senderProfileId))
    .where(and(eq(profiles.userId, userId), eq(messages.kind, 'photo')));
  const keys = [
    ...rows.flatMap((row) => [row.main, row.thumb, row.blurred, row.blurredThumb]),
    ...sent.flatMap((row) => [row.main, row.thumb]),
  ];
  return [...new Set(keys.filter((key): key is string => key !== null))];
}

// ---- login throttles

export type LoginThrottleKey = { siteId: number; email: string };
export type LoginThrottleRow = typeof loginThrottles.$inferSelect;
export type LoginThrottleUpdate = Partial<Omit<LoginThrottleRow, 'siteId' | 'email'>>;

const throttleOf = (key: LoginThrottleKey) =>
  and(eq(loginThrottles.siteId, key.siteId), eq(loginThrottles.email, key.email));

/**
 * The address's throttle, made if missing. The upsert takes the row lock, held until the transaction
 * ends: parallel logins for one address pass here one at a time.
 */
export async function lockLoginThrottle(db: Executor, key: LoginThrottleKey, at: Date) {
  const [row] = await db
    .insert(loginThrottles)
    .values({ siteId: key.siteId, email: key.email, updatedAt: at })
    .onConflictDoUpdate({
      target: [loginThrottles.siteId, loginThrottles.email],
      set: { updatedAt: at },
    })
    .returning();
  return row!;
}

export async function updateLoginThrottle(
  db: Executor,
  key: LoginThrottleKey,
  update: LoginThrottleUpdate,
): Promise<void> {
  await db.update(loginThrottles).set(update).where(throttleOf(key));
}

export async function deleteLoginThrottle(db: Executor, key: LoginThrottleKey): Promise<void> {
  await db.delete(loginThrottles).where(throttleOf(key));
}

/** Throttles untouched since a moment and not locked now: nothing left to remember. */
export async function pruneLoginThrottles(db: Executor, untouchedSince: Date, now: Date): Promise<number> {
  const deleted = await db
    .delete(loginThrottles)
    .where(
      and(
        lt(loginThrottles.updatedAt, untouchedSince),
        or(isNull(loginThrottles.lockedUntil), lt(loginThrottles.lockedUntil, now)),
      ),
    )
    .returning({ email: loginThrottles.email });
  return deleted.length;
}
