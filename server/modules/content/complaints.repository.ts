import { and, eq, gte, sql } from 'drizzle-orm';
import type { Executor } from '#server/db/client.ts';
import { complaints } from '#server/db/schema/social.ts';

export async function insertComplaint(
  db: Executor,
  complaint: typeof complaints.$inferInsert,
): Promise<{ id: number }> {
  const [row] = await db.insert(complaints).values(complaint).returning({ id: complaints.id });
  return row!;
}

/** Complaints filed with one reply address on one site since a moment (case-insensitive). */
export async function complaintsToAddressSince(
  db: Executor,
  siteId: number,
  email: string,
  since: Date,
): Promise<number> {
  const [row] = await db
    .select({ value: sql<number>`count(*)::int` })
    .from(complaints)
    .where(
      and(
        eq(complaints.siteId, siteId),
        sql`lower(${complaints.email}) = ${email.toLowerCase()}`,
        gte(complaints.createdAt, since),
      ),
    );
  return row?.value ?? 0;
}
