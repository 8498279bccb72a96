import { and, desc, eq, gt, lt } from 'drizzle-orm';
import type { Executor } from '#server/db/client.ts';
import {
  emailBans,
  memberPasskeys,
  staffPasskeys,
  type WebauthnPurpose,
  webauthnChallenges,
} from '#server/db/schema/security.ts';

// ---- challenges

export async function insertChallenge(
  db: Executor,
  row: {
    challenge: string;
    purpose: WebauthnPurpose;
    subjectId: number | null;
    siteId: number;
    expiresAt: Date;
  },
): Promise<void> {
  await db.insert(webauthnChallenges).values(row);
}

/**
 * Takes a challenge: deleted in the same statement that finds it, so of two answers carrying it (two
 * instances, a replay) exactly one gets the row. Expired or unknown: undefined.
 */
export async function takeChallenge(db: Executor, challenge: string, purpose: WebauthnPurpose, now: Date) {
  const [row] = await db
    .delete(webauthnChallenges)
    .where(
      and(
        eq(webauthnChallenges.challenge, challenge),
        eq(webauthnChallenges.purpose, purpose),
        gt(webauthnChallenges.expiresAt, now),
      ),
    )
    .returning();
  return row;
}

export async function pruneChallenges(db: Executor, now: Date): Promise<number> {
  const rows = await db
    .delete(webauthnChallenges)
    .where(lt(webauthnChallenges.expiresAt, now))
    .returning({ challenge: webauthnChallenges.challenge });
  return rows.length;
}

// ---- passkeys (a member's or a staff member's: the same columns in two tables)

export type PasskeyOwner = { kind: 'member' | 'staff'; id: number };
export type PasskeyRow = {
  id: number;
  credentialId: string;
  publicKey: string;
  counter: number;
  transports: string[];
  name: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  ownerId: number;
};

const columns = (table: typeof memberPasskeys | typeof staffPasskeys) => ({
  id: table.id,
  credentialId: table.credentialId,
  publicKey: table.publicKey,
  counter: table.counter,
  transports: table.transports,
  name: table.name,
  createdAt: table.createdAt,
  lastUsedAt: table.lastUsedAt,
});

export async function listPasskeys(db: Executor, owner: PasskeyOwner): Promise<PasskeyRow[]> {
  if (owner.kind === 'member') {
    const rows = await db
      .select({ ...columns(memberPasskeys), ownerId: memberPasskeys.userId })
      .from(memberPasskeys)
      .where(eq(memberPasskeys.userId, owner.id))
      .orderBy(desc(memberPasskeys.createdAt));
    return rows;
  }
  return db
    .select({ ...columns(staffPasskeys), ownerId: staffPasskeys.staffId })
    .from(staffPasskeys)
    .where(eq(staffPasskeys.staffId, owner.id))
    .orderBy(desc(staffPasskeys.createdAt));
}

export async function findPasskeyByCredential(
  db: Executor,
  kind: PasskeyOwner['kind'],
  credentialId: string,
): Promise<PasskeyRow | undefined> {
  if (kind === 'member') {
    const [row] = await db
      .select({ ...columns(memberPasskeys), ownerId: memberPasskeys.userId })
      .from(memberPasskeys)
      .where(eq(memberPasskeys.credentialId, credentialId))
      .limit(1);
    return row;
  }
  const [row] = await db
    .select({ ...columns(staffPasskeys), ownerId: staffPasskeys.staffId })
    .from(staffPasskeys)
    .where(eq(staffPasskeys.credentialId, credentialId))
    .limit(1);
  return row;
}

/** A new passkey; undefined when the credential is registered already (to any account). */
export async function insertPasskey(
  db: Executor,
  owner: PasskeyOwner,
  passkey: {
    credentialId: string;
    publicKey: string;
    counter: number;
    transports: string[];
    name: string;
    at: Date;
  },
): Promise<PasskeyRow | undefined> {
  const values = {
    credentialId: passkey.credentialId,
    publicKey: passkey.publicKey,
    counter: passkey.counter,
    transports: passkey.transports,
    name: passkey.name,
    createdAt: passkey.at,
  };
  if (owner.kind === 'member') {
    const [row] = await db
      .insert(memberPasskeys)
      .values({ ...values, userId: owner.id })
      .onConflictDoNothing()
      .returning({ ...columns(memberPasskeys), ownerId: memberPasskeys.userId });
    return row;
  }
  const [row] = await db
    .insert(staffPasskeys)
    .values({ ...values, staffId: owner.id })
    .onConflictDoNothing()
    .returning({ ...columns(staffPasskeys), ownerId: staffPasskeys.staffId });
  return row;
}

/**
 * Records a sign-in with the passkey: the counter moves only forward, in the statement that checks
 * it, so two sign-ins replaying one assertion cannot both pass. False when the counter did not grow.
 */
export async function advanceCounter(
  db: Executor,
  kind: PasskeyOwner['kind'],
  id: number,
  seen: number,
  next: number,
  at: Date,
): Promise<boolean> {
  const table = kind === 'member' ? memberPasskeys : staffPasskeys;
  const rows = await db
    .update(table)
    .set({ counter: next, lastUsedAt: at })
    .where(and(eq(table.id, id), eq(table.counter, seen)))
    .returning({ id: table.id });
  return rows.length > 0;
}

export async function deletePasskey(db: Executor, owner: PasskeyOwner, id: number): Promise<boolean> {
  const rows =
    owner.kind === 'member'
      ? await db
          .delete(memberPasskeys)
          .where(and(eq(memberPasskeys.id, id), eq(memberPasskeys.userId, owner.id)))
          .returning({ id: memberPasskeys.id })
      : await db
          .delete(staffPasskeys)
          .where(and(eq(staffPasskeys.id, id), eq(staffPasskeys.staffId, owner.id)))
          .returning({ id: staffPasskeys.id });
  return rows.length > 0;
}

// ---- address bans

export async function insertEmailBan(
  db: Executor,
  hash: string,
  userId: number | null,
  at: Date,
): Promise<void> {
  await db
    .insert(emailBans)
    .values({ hash, userId, createdAt: at })
    .onConflictDoUpdate({ target: emailBans.hash, set: { userId, createdAt: at } });
}

export async function isEmailBanned(db: Executor, hash: string): Promise<boolean> {
  const rows = await db
    .select({ hash: emailBans.hash })
    .from(emailBans)
    .where(eq(emailBans.hash, hash))
    .limit(1);
  return rows.length > 0;
}

export async function deleteEmailBansOfUser(db: Executor, userId: number): Promise<number> {
  const rows = await db
    .delete(emailBans)
    .where(eq(emailBans.userId, userId))
    .returning({ hash: emailBans.hash });
  return rows.length;
}

export async function countEmailBansOfUser(db: Executor, userId: number): Promise<number> {
  const rows = await db.select({ hash: emailBans.hash }).from(emailBans).where(eq(emailBans.userId, userId));
  return rows.length;
}
