import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { profiles, users } from '#server/db/schema/members.ts';
import { activeMember } from '../../../tests/setup/members.ts';
import { createTestApp, type TestApp } from '../../../tests/setup/test-app.ts';
import { searchCountCap } from './search.repository.ts';

describe('search count cap', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('counts up to 1,000 and says when there are more; pages cover the first 1,000', async () => {
    const viewer = await activeMember(t.app);
    const db = t.database.db;
    const [own] = await db.select().from(profiles).where(eq(profiles.id, viewer.profileId));
    const [ownUser] = await db.select().from(users).where(eq(users.id, viewer.userId));
    const extra = 1_050;
    const made = await db
      .insert(users)
      .values(
        Array.from({ length: extra }, (_, index) => ({
          siteId: ownUser!.siteId,
          email: `cap.${index}.${viewer.userId}@example.com`,
          passwordHash: 'x',
          status: 'active' as const,
        })),
      )
      .returning({ id: users.id });
    await db.insert(profiles).values(
      made.map((user, index) => ({
        userId: user.id,
        name: `Cap ${index}`,
        birthdate: '1990-01-01',
        country: own!.country,
        gender: 'male' as const,
        status: 'active' as const,
      })),
    );
    const answer = await t.app.inject({ url: '/api/search.php', headers: { cookie: viewer.cookie } });
    expect(answer.statusCode, answer.body).toBe(200);
    const body = answer.json();
    expect(body).toMatchObject({ total: searchCountCap, total_capped: true, page: 1 });
    expect(body.pages).toBe(Math.ceil(searchCountCap / 24));

    // A narrow search is counted exactly and not capped.
    const narrow = await t.app.inject({
      url: '/api/search.php?gender=female',
      headers: { cookie: viewer.cookie },
    });
    expect(narrow.json().total).toBeLessThan(searchCountCap);
    expect(narrow.json().total_capped).toBe(false);
  });
});
