import { eq } from 'drizzle-orm';
import type { Database } from '#server/db/client.ts';
import { profiles, users } from '#server/db/schema/members.ts';

type ProfileFields = Partial<Omit<typeof profiles.$inferInsert, 'userId'>>;

/**
 * `count` active members on the viewer's site and in the viewer's country (born 1990, men unless
 * `fields` says otherwise), inserted directly: searches need many profiles and sign-ups are slow.
 */
export async function profilesNextTo(
  db: Database,
  viewer: { userId: number; profileId: number },
  count: number,
  label: string,
  fields: (index: number) => ProfileFields = () => ({}),
): Promise<{ id: number }[]> {
  const [own] = await db.select().from(profiles).where(eq(profiles.id, viewer.profileId));
  const [ownUser] = await db.select().from(users).where(eq(users.id, viewer.userId));
  if (!own || !ownUser) throw new Error(`No member ${viewer.userId}`);
  const made = await db
    .insert(users)
    .values(
      Array.from({ length: count }, (_, index) => ({
        siteId: ownUser.siteId,
        email: `${label}.${index}.${viewer.userId}@example.com`,
        passwordHash: 'x',
        status: 'active' as const,
      })),
    )
    .returning({ id: users.id });
  return db
    .insert(profiles)
    .values(
      made.map((user, index) => ({
        userId: user.id,
        name: `${label} ${index}`,
        birthdate: '1990-01-01',
        country: own.country,
        gender: 'male' as const,
        status: 'active' as const,
        ...fields(index),
      })),
    )
    .returning({ id: profiles.id });
}
