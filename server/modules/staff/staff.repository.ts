import { and, desc, eq, gt, inArray, isNull, lt, ne, or, sql } from 'drizzle-orm';
import type { Executor } from '#server/db/client.ts';
import { staffPasskeys } from '#server/db/schema/security.ts';
import {
  type StaffRow,
  staff,
  staffAudit,
  staffLoginThrottles,
  staffSessions,
} from '#server/db/schema/staff.ts';

export async function findStaffByEmail(db: Executor, email: string): Promise<StaffRow | undefined> {
  const [row] = await db.select().from(staff).where(sql`lower(${staff.email}) = lower(${email})`).limit(1);
  return row;
}

// ---- sign-in throttles (per address, known or not)

export type StaffLoginThrottleRow = typeof staffLoginThrottles.$inferSelect;
export type StaffLoginThrottleUpdate = Partial<Omit<StaffLoginThrottleRow, 'email'>>;

/**
 * The address's throttle, made if missing. The upsert takes the row lock, held until the transaction
 * ends: parallel sign-ins for one address pass here one at a time.
 */
export async function lockLoginThrottle(
  db: Executor,
  email: string,
  at: Date,
): Promise<StaffLoginThrottleRow> {
  const [row] = await db
    .insert(staffLoginThrottles)
    .values({ email, updatedAt: at })
    .onConflictDoUpdate({ target: staffLoginThrottles.email, set: { updatedAt: at } })
    .returning();
  return row!;
}

export async function updateLoginThrottle(
  db: Executor,
  email: string,
  update: StaffLoginThrottleUpdate,
): Promise<void> {
  await db.update(staffLoginThrottles).set(update).where(eq(staffLoginThrottles.email, email));
}

export async function deleteLoginThrottle(db: Executor, email: string): Promise<void> {
  await db.delete(staffLoginThrottles).where(eq(staffLoginThrottles.email, email));
}

/** Throttles untouched since a moment and not locked now: nothing left to remember. */
export async function pruneLoginThrottles(db: Executor, untouchedSince: Date, now: Date): Promise<number> {
  const deleted = await db
    .delete(staffLoginThrottles)
    .where(
      and(
        lt(staffLoginThrottles.updatedAt, untouchedSince),
        or(isNull(staffLoginThrottles.lockedUntil), lt(staffLoginThrottles.lockedUntil, now)),
      ),
    )
    .returning({ email: staffLoginThrottles.email });
  return deleted.length;
}

/** Inserts a staff account unless one has the address already; undefined then. */
export async function insertStaff(
  db: Executor,
  values: typeof staff.$inferInsert,
): Promise<StaffRow | undefined> {
  const [row] = await db.insert(staff).values(values).onConflictDoNothing().returning();
  return row;
}

export async function listStaff(db: Executor): Promise<StaffRow[]> {
  return db.select().from(staff).orderBy(staff.name, staff.id);
}

export async function updateStaff(
  db: Executor,
  id: number,
  values: Partial<typeof staff.$inferInsert>,
): Promise<void> {
  await db.update(staff).set(values).where(eq(staff.id, id));
}

export async function findStaffById(db: Executor, id: number): Promise<StaffRow | undefined> {
  const [row] = await db.select().from(staff).where(eq(staff.id, id)).limit(1);
  return row;
}

/** Changes a staff account and answers it as it is now (undefined: no such account). */
export async function updateStaffReturning(
  db: Executor,
  id: number,
  values: Partial<typeof staff.$inferInsert>,
): Promise<StaffRow | undefined> {
  const [row] = await db.update(staff).set(values).where(eq(staff.id, id)).returning();
  return row;
}

/** Ends every sign-in of a staff member (their account was deactivated). */
export async function deleteStaffSessionsOf(db: Executor, staffId: number): Promise<void> {
  await db.delete(staffSessions).where(eq(staffSessions.staffId, staffId));
}

/** Accepts a TOTP time step once: false when this or a later step was used already (replay). */
/** Ends every session of a staff member but one (the one changing the password). */
export async function deleteOtherStaffSessions(db: Executor, staffId: number, keepId: number): Promise<void> {
  await db.delete(staffSessions).where(and(eq(staffSessions.staffId, staffId), ne(staffSessions.id, keepId)));
}

export async function advanceTotpStep(db: Executor, id: number, step: number): Promise<boolean> {
  const rows = await db
    .update(staff)
    .set({ totpLastStep: step })
    .where(and(eq(staff.id, id), lt(staff.totpLastStep, step)))
    .returning({ id: staff.id });
  return rows.length === 1;
}

// ---- sessions

export async function insertStaffSession(db: Executor, values: typeof staffSessions.$inferInsert) {
  await db.insert(staffSessions).values(values);
}

/** A passkey of the staff member: it counts as the enrolled second factor as TOTP does. */
const hasPasskey = sql<boolean>`exists (select 1 from staff_passkeys sp where sp.staff_id = ${staff.id})`;

export async function findStaffSession(db: Executor, tokenHash: string, now: Date) {
  const [row] = await db
    .select({ session: staffSessions, staff, hasPasskey })
    .from(staffSessions)
    .innerJoin(staff, eq(staff.id, staffSessions.staffId))
    .where(and(eq(staffSessions.tokenHash, tokenHash), gt(staffSessions.expiresAt, now)))
    .limit(1);
  return row;
}

export async function deleteStaffSession(db: Executor, tokenHash: string): Promise<void> {
  await db.delete(staffSessions).where(eq(staffSessions.tokenHash, tokenHash));
}

export async function deleteStaffSessionById(db: Executor, staffId: number, id: number): Promise<boolean> {
  const rows = await db
    .delete(staffSessions)
    .where(and(eq(staffSessions.staffId, staffId), eq(staffSessions.id, id)))
    .returning({ id: staffSessions.id });
  return rows.length === 1;
}

export async function listStaffSessions(db: Executor, staffId: number, now: Date) {
  return db
    .select()
    .from(staffSessions)
    .where(and(eq(staffSessions.staffId, staffId), gt(staffSessions.expiresAt, now)))
    .orderBy(desc(staffSessions.createdAt));
}

/** The staff members among `ids` who hold a passkey. */
export async function withPasskeys(db: Executor, ids: readonly number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .selectDistinct({ id: staffPasskeys.staffId })
    .from(staffPasskeys)
    .where(inArray(staffPasskeys.staffId, [...ids]));
  return new Set(rows.map((row) => row.id));
}

/** Ends every session of a staff member but one; how many ended. */
export async function deleteSessionsExcept(db: Executor, staffId: number, keepId: number | null) {
  const rows = await db
    .delete(staffSessions)
    .where(
      and(eq(staffSessions.staffId, staffId), keepId === null ? undefined : ne(staffSessions.id, keepId)),
    )
    .returning({ id: staffSessions.id });
  return rows.length;
}

// ---- audit

export async function insertAudit(db: Executor, entry: typeof staffAudit.$inferInsert): Promise<void> {
  await db.insert(staffAudit).values(entry);
}

export async function listAudit(
  db: Executor,
  options: { staffId?: number | undefined; limit: number; offset: number },
) {
  return db
    .select({ entry: staffAudit, staffName: staff.name })
    .from(staffAudit)
    .leftJoin(staff, eq(staff.id, staffAudit.staffId))
    .where(options.staffId ? eq(staffAudit.staffId, options.staffId) : undefined)
    .orderBy(desc(staffAudit.at), desc(staffAudit.id))
    .limit(options.limit)
    .offset(options.offset);
}
