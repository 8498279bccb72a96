import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { profiles } from '#server/db/schema/members.ts';
import { createTestApp, type TestApp } from '../../../tests/setup/test-app.ts';
import { demoLook } from './demo.media.ts';
import { seededRandom } from './demo.seed.ts';
import { demoAbout, demoSeeking } from './demo-about.ts';

describe('demo profiles that look like a product', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('gives every fictional member an about text, interests and whom they seek', async () => {
    const rows = await t.app.deps.db.select().from(profiles).where(eq(profiles.fictional, true));
    expect(rows.length).toBeGreaterThan(50);
    for (const row of rows) {
      expect(row.about?.length ?? 0, row.name).toBeGreaterThan(30);
      expect(row.interests.length, row.name).toBeGreaterThan(0);
      expect(row.seeking).toBe(demoSeeking(row.gender ?? 'female', row.sexuality));
    }
    // Lesbian members seek women, straight men seek women: search can keep them apart.
    expect(demoSeeking('female', 'lesbian')).toBe('female');
    expect(demoSeeking('male', 'hetero')).toBe('female');
    expect(demoSeeking('male', 'bi')).toBe('both');
  });

  it('writes the about text in the language of the country, naming an interest', () => {
    const dutch = demoAbout('nl', ['wine'], seededRandom(1));
    expect(dutch).toContain('een glas wijn op een terras');
    expect(demoAbout('de', ['music', 'art'], seededRandom(2))).toContain('Livemusik in kleinen Clubs und');
    expect(demoAbout('en', ['cooking'], seededRandom(3))).toBe(demoAbout('en', ['cooking'], seededRandom(3)));
  });

  it("keeps one person's face, hair and skin on all their photos", () => {
    const person = { id: 42, name: 'Anna', gender: 'female' as const, hair: 'red' };
    expect(demoLook(person)).toEqual(demoLook({ ...person }));
    expect(['c93305', 'a55728']).toContain(demoLook(person).hairColor);
    const looks = new Set(
      Array.from({ length: 20 }, (_, id) => JSON.stringify(demoLook({ ...person, id: id + 1 }))),
    );
    expect(looks.size).toBeGreaterThan(10);
    expect(demoLook({ id: 7, name: 'Bob', gender: 'male', hair: 'bald' }).topProbability).toBe(0);
  });
});
