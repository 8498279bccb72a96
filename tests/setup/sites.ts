import type { Executor } from '#server/db/client.ts';
import { companies, sites } from '#server/db/schema/sites.ts';

/** A site of its own for a test (a unique localhost domain, selling in the Netherlands), on the first company. */
export async function insertSite(db: Executor, slug: string, name = slug): Promise<number> {
  const [company] = await db.select({ id: companies.id }).from(companies).limit(1);
  if (!company) throw new Error('no company in the test database');
  const [site] = await db
    .insert(sites)
    .values({
      domain: `${slug}-${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2, 6)}.localhost`,
      name,
      indexTitle: name,
      description: '',
      countries: ['NL'],
      supportEmail: 'support@example.com',
      companyId: company.id,
    })
    .returning({ id: sites.id });
  return site!.id;
}
