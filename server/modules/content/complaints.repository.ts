import type { Executor } from '#server/db/client.ts';
import { complaints } from '#server/db/schema/social.ts';

export async function insertComplaint(
  db: Executor,
  complaint: typeof complaints.$inferInsert,
): Promise<void> {
  await db.insert(complaints).values(complaint);
}
