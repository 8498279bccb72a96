import { eq } from 'drizzle-orm';
import type { Executor } from '#server/db/client.ts';
import { type CompanyRow, companies, type SiteRow, sites } from '#server/db/schema/sites.ts';

export async function listSites(db: Executor): Promise<SiteRow[]> {
  return db.select().from(sites).orderBy(sites.id);
}

export async function listCompanies(db: Executor): Promise<CompanyRow[]> {
  return db.select().from(companies).orderBy(companies.id);
}

export type SitePatch = Partial<Omit<SiteRow, 'id' | 'updatedAt'>>;

export async function updateSite(db: Executor, id: number, patch: SitePatch): Promise<SiteRow | undefined> {
  const [row] = await db
    .update(sites)
    .set({ ...patch, updatedAt: new Date() })
    .where(eq(sites.id, id))
    .returning();
  return row;
}
