import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { locales } from '#contract/locales.ts';
import { profiles } from '#server/db/schema/members.ts';
import { activeMember, nextIp } from '../../../tests/setup/members.ts';
import { signedInStaff } from '../../../tests/setup/staff.ts';
import { createTestApp, type TestApp } from '../../../tests/setup/test-app.ts';
import { demoLook } from './demo.media.ts';
import { seededRandom } from './demo.seed.ts';
import { demoAbout, demoAboutInEveryLanguage, demoSeeking } from './demo-about.ts';
import { languageAreaOf } from './demo-names.ts';

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

  it('writes every bio in all 11 site languages, the same bio in each, the country language as about', async () => {
    const rows = await t.app.deps.db.select().from(profiles).where(eq(profiles.fictional, true));
    for (const row of rows) {
      const texts = row.aboutTranslations;
      expect(Object.keys(texts).sort(), row.name).toEqual([...locales].sort());
      expect(new Set(Object.values(texts)).size, row.name).toBe(locales.length);
      expect(row.about).toBe(texts[languageAreaOf[row.country] ?? 'en']);
    }
    // One seed, one bio: every language picks the same opener and closer.
    const bio = demoAboutInEveryLanguage(['wine', 'music'], 7, seededRandom);
    const english = demoAbout('en', ['wine', 'music'], seededRandom(7));
    expect(bio.en).toBe(english);
    expect(bio.pl).toContain('Uwielbiam lampkę wina na tarasie i muzykę na żywo w małych klubach.');
    expect(bio.fr).toContain('J’adore un verre de vin en terrasse et les concerts dans les petites salles.');
    expect(bio.fi).toContain(
      'Rakastan lasillista viiniä terassilla ja livemusiikkia pienillä keikkapaikoilla.',
    );
  });

  it("shows a fictional member's bio in the reader's language, the stored one where none is written", async () => {
    const [dutch] = await t.app.deps.db
      .select()
      .from(profiles)
      .where(and(eq(profiles.fictional, true), eq(profiles.country, 'NL')))
      .limit(1);
    if (!dutch) throw new Error('no Dutch demo member');
    const reader = await activeMember(t.app);
    const aboutIn = async (locale: string) =>
      (
        await t.app.inject({
          url: `/api/member.php?id=${dutch.id}`,
          headers: { cookie: `${reader.cookie}; locale=${locale}` },
        })
      ).json().profile.about;
    expect(await aboutIn('pl')).toBe(dutch.aboutTranslations.pl);
    expect(await aboutIn('es')).toBe(dutch.aboutTranslations.es);
    expect(await aboutIn('nl')).toBe(dutch.about);

    // Staff rewrite the bio: the old translations go, every reader sees the new text.
    const admin = await signedInStaff(t.app, 'admin');
    const edit = await t.app.inject({
      method: 'PUT',
      url: '/api/admin/profiles.php',
      remoteAddress: nextIp(),
      headers: { cookie: admin.cookie },
      payload: { id: dutch.id, about: 'Zeilen, koffie en slechte woordgrappen.' },
    });
    expect(edit.statusCode, edit.body).toBe(200);
    expect(await aboutIn('pl')).toBe('Zeilen, koffie en slechte woordgrappen.');
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
