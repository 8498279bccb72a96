import { and, asc, eq, ne, sql } from 'drizzle-orm';
import type { Executor } from '#server/db/client.ts';
import { type CompanyRow, companies, type SiteRow, sites } from '#server/db/schema/sites.ts';

export type NewSite = typeof sites.$inferInsert;
export type SiteChanges = Partial<Omit<NewSite, 'id'>>;
export type NewCompany = typeof companies.$inferInsert;
export type CompanyChanges = Partial<Omit<NewCompany, 'id'>>;

export async function listSites(db: Executor): Promise<SiteRow[]> {
  return db.select().from(sites).orderBy(asc(sites.id));
}

export async function findSite(db: Executor, id: number): Promise<SiteRow | undefined> {
  const [row] = await db.select().from(sites).where(eq(sites.id, id)).limit(1);
  return row;
}

/** Locks the site's row until the transaction ends: two edits of one site apply one after the other. */
export async function lockSite(db: Executor, id: number): Promise<SiteRow | undefined> {
  const [row] = await db.select().from(sites).where(eq(sites.id, id)).for('update');
  return row;
}

export async function findSiteByDomain(db: Executor, domain: string): Promise<SiteRow | undefined> {
  const [row] = await db.select().from(sites).where(eq(sites.domain, domain)).limit(1);
  return row;
}

export async function insertSite(db: Executor, site: NewSite): Promise<SiteRow> {
  const [row] = await db.insert(sites).values(site).returning();
  return row!;
}

export async function updateSite(
  db: Executor,
  id: number,
  changes: SiteChanges,
): Promise<SiteRow | undefined> {
  const [row] = await db.update(sites).set(changes).where(eq(sites.id, id)).returning();
  return row;
}

/** Only one site is the default (served for unknown hosts). */
export async function clearDefaultExcept(db: Executor, id: number): Promise<void> {
  await db
    .update(sites)
    .set({ isDefault: false })
    .where(and(eq(sites.isDefault, true), ne(sites.id, id)));
}

export async function listCompanies(db: Executor): Promise<CompanyRow[]> {
  return db.select().from(companies).orderBy(asc(companies.id));
}

export async function findCompany(db: Executor, id: number): Promise<CompanyRow | undefined> {
  const [row] = await db.select().from(companies).where(eq(companies.id, id)).limit(1);
  return row;
}

/** A new company under the next free id (company ids are chosen, not serial: 1, 5 and 6 have own footers). */
export async function insertCompany(db: Executor, company: Omit<NewCompany, 'id'>): Promise<CompanyRow> {
  const [row] = await db
    .insert(companies)
    .values({ ...company, id: sql`(select coalesce(max(${companies.id}), 0) + 1 from ${companies})` })
    .returning();
  return row!;
}

export async function updateCompany(
  db: Executor,
  id: number,
  changes: CompanyChanges,
): Promise<CompanyRow | undefined> {
  if (Object.keys(changes).length === 0) return findCompany(db, id);
  const [row] = await db.update(companies).set(changes).where(eq(companies.id, id)).returning();
  return row;
}
