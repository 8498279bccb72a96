import { and, asc, count, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Executor, Transaction } from '#server/db/client.ts';
import { bundlePrices, bundles, gifts } from '#server/db/schema/catalog.ts';
import { profiles, users } from '#server/db/schema/members.ts';
import { photos } from '#server/db/schema/photos.ts';
import { companies, sites } from '#server/db/schema/sites.ts';

type NewCompany = typeof companies.$inferInsert;
type NewSite = typeof sites.$inferInsert;
type NewUser = typeof users.$inferInsert;
type NewProfile = Omit<typeof profiles.$inferInsert, 'userId'>;
type NewPhoto = typeof photos.$inferInsert;

/** Serialises seeding between instances on one PostgreSQL until the transaction ends. */
const DEMO_SEED_LOCK_ID = 72_410_002;

export async function lockDemoSeeding(db: Transaction): Promise<void> {
  await db.execute(sql`select pg_advisory_xact_lock(${DEMO_SEED_LOCK_ID})`);
}

export async function insertCompanies(db: Executor, rows: NewCompany[]): Promise<void> {
  await db.insert(companies).values(rows).onConflictDoNothing();
}

export async function insertSites(db: Executor, rows: NewSite[]): Promise<void> {
  await db.insert(sites).values(rows).onConflictDoNothing({ target: sites.domain });
}

export async function siteIdsByDomain(db: Executor): Promise<Map<string, number>> {
  const rows = await db.select({ id: sites.id, domain: sites.domain }).from(sites);
  return new Map(rows.map((row) => [row.domain, row.id]));
}

export async function countFictionalProfiles(db: Executor): Promise<number> {
  const [row] = await db.select({ value: count() }).from(profiles).where(eq(profiles.fictional, true));
  return row?.value ?? 0;
}

/** Users and their profiles, inserted pairwise in one statement each. */
export async function insertFictionalMembers(
  db: Executor,
  members: { user: NewUser; profile: NewProfile }[],
): Promise<void> {
  if (members.length === 0) return;
  const inserted = await db
    .insert(users)
    .values(members.map((member) => member.user))
    .returning({ id: users.id });
  await db
    .insert(profiles)
    .values(members.map((member, index) => ({ ...member.profile, userId: inserted[index]!.id })));
}

export async function hasBundles(db: Executor): Promise<boolean> {
  const [row] = await db.select({ value: count() }).from(bundles);
  return (row?.value ?? 0) > 0;
}

export async function insertBundle(
  db: Executor,
  bundle: typeof bundles.$inferInsert,
  prices: Omit<typeof bundlePrices.$inferInsert, 'bundleId'>[],
): Promise<void> {
  const [row] = await db.insert(bundles).values(bundle).returning({ id: bundles.id });
  await db.insert(bundlePrices).values(prices.map((price) => ({ ...price, bundleId: row!.id })));
}

export async function insertGifts(db: Executor, rows: (typeof gifts.$inferInsert)[]): Promise<void> {
  await db.insert(gifts).values(rows).onConflictDoNothing({ target: gifts.slug });
}

export async function listGifts(db: Executor) {
  return db.select().from(gifts).orderBy(asc(gifts.position));
}

/** Fictional profiles that have no photo yet, oldest first. */
export async function fictionalProfilesWithoutPhotos(db: Executor, limit: number) {
  return db
    .select({ id: profiles.id, name: profiles.name, gender: profiles.gender, hair: profiles.hair })
    .from(profiles)
    .leftJoin(photos, eq(photos.profileId, profiles.id))
    .where(and(eq(profiles.fictional, true), isNull(photos.id)))
    .orderBy(asc(profiles.id))
    .limit(limit);
}

export async function insertPhotos(db: Executor, rows: NewPhoto[]): Promise<void> {
  if (rows.length > 0) await db.insert(photos).values(rows);
}

/**
 * Moves the fictional members' dates forward by `ms`: a demo restored from a snapshot made days ago
 * (server/db/snapshot.ts) is as recently active, and its members as old, as a demo seeded today.
 */
export async function shiftFictionalDates(db: Executor, ms: number): Promise<void> {
  const interval = `${Math.round(ms)} milliseconds`;
  const days = Math.round(ms / 86_400_000);
  const fictionalUsers = db
    .select({ userId: profiles.userId })
    .from(profiles)
    .where(eq(profiles.fictional, true));
  await db
    .update(users)
    .set({ signupDate: sql`${users.signupDate} + ${interval}::interval` })
    .where(inArray(users.id, fictionalUsers));
  await db
    .update(profiles)
    .set({
      lastActiveAt: sql`${profiles.lastActiveAt} + ${interval}::interval`,
      createdAt: sql`${profiles.createdAt} + ${interval}::interval`,
      birthdate: sql`${profiles.birthdate} + ${days}::integer`,
    })
    .where(eq(profiles.fictional, true));
}
