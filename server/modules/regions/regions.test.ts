import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locale } from '#contract/locales.ts';
import { createTestApp, type TestApp } from '../../../tests/setup/test-app.ts';
import { withRegionLabels } from './region-labels.ts';
import { localizedRegionsOf, regionName } from './regions.data.ts';

describe('region names in the reader’s language', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    const { generateDemoMedia } = await import('#server/modules/demo/demo.media.ts');
    await generateDemoMedia(t.app.deps.db, t.app.deps.storage, { maxProfiles: 16 });
  });
  afterAll(() => t.close());

  const regionNames = async (country: string, locale: Locale) => {
    const response = await t.app.inject({
      url: `/api/regions.php?country=${country}`,
      headers: { cookie: `locale=${locale}` },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-language']).toBe(locale);
    return (response.json().regions as { code: string; name: string }[]).map((region) => region.name);
  };

  it('names the regions of NL, BE and DE in nl, de, fr and it', async () => {
    const expected: Record<string, Partial<Record<Locale, string[]>>> = {
      NL: {
        nl: ['Noord-Holland', 'Zuid-Holland', 'Noord-Brabant'],
        de: ['Nordholland', 'Südholland', 'Nordbrabant'],
        fr: ['Hollande-Septentrionale', 'Hollande-Méridionale', 'Zélande'],
        it: ['Olanda Settentrionale', 'Olanda Meridionale', 'Zelanda'],
      },
      BE: {
        nl: ['Vlaanderen', 'Luik', 'Henegouwen', 'Antwerpen'],
        de: ['Flandern', 'Lüttich', 'Hennegau', 'Wallonien'],
        fr: ['Flandre', 'Liège', 'Anvers', 'Wallonie'],
        it: ['Fiandre', 'Liegi', 'Anversa', 'Vallonia'],
      },
      DE: {
        nl: ['Beieren', 'Nedersaksen', 'Noordrijn-Westfalen'],
        de: ['Bayern', 'Niedersachsen', 'Nordrhein-Westfalen', 'Thüringen'],
        fr: ['Bavière', 'Basse-Saxe', 'Rhénanie-du-Nord-Westphalie'],
        it: ['Baviera', 'Bassa Sassonia', 'Renania Settentrionale-Vestfalia', 'Turingia'],
      },
    };
    for (const [country, byLocale] of Object.entries(expected)) {
      for (const [locale, names] of Object.entries(byLocale)) {
        const listed = await regionNames(country, locale as Locale);
        for (const name of names ?? []) expect(listed, `${country} ${locale}`).toContain(name);
      }
    }
    // English stays English; the lists keep the stored codes.
    expect(await regionNames('DE', 'en')).toContain('Bavaria');
    const codes = localizedRegionsOf('NL', 'fr').map((region) => region.code);
    expect(codes).toHaveLength(12);
    expect(codes).toContain('NH');
  });

  it('sorts the list in the reader’s alphabet', () => {
    const names = localizedRegionsOf('DE', 'de').map((region) => region.name);
    expect(names).toEqual([...names].sort(new Intl.Collator('de').compare));
    expect(names.indexOf('Thüringen')).toBeGreaterThan(names.indexOf('Schleswig-Holstein'));
  });

  it('falls back to the local name for a language without its own, then to the data set', () => {
    expect(regionName('NL', 'OV', 'fi')).toBe('Overijssel');
    expect(regionName('BE', 'WNA', 'fr')).toBe('Namur');
    // A country without kept names: the data set's name; an unknown code: none.
    expect(regionName('AT', '9', 'de')).toBe('Wien');
    expect(regionName('NO', '03', 'de')).toBe('Oslo');
    expect(regionName('NL', 'XX', 'nl')).toBeNull();
    expect(regionName('NL', null, 'nl')).toBeNull();
  });

  it('names the regions of the other countries of the sites’ languages in the local name', () => {
    // The local name for the country's own language and as the fallback, exonyms where kept.
    expect(regionName('PL', 'MZ', 'pl')).toBe('Mazowieckie');
    expect(regionName('PL', 'MZ', 'de')).toBe('Masowien');
    expect(regionName('PL', 'MZ', 'fi')).toBe('Mazowieckie');
    expect(regionName('PL', 'MZ', 'en')).toBe('Masovian Voivodeship');
    expect(regionName('SE', 'M', 'sv')).toBe('Skåne län');
    expect(regionName('FI', '18', 'fi')).toBe('Uusimaa');
    expect(regionName('FI', '18', 'sv')).toBe('Nyland');
    expect(regionName('FI', '01', 'fi')).toBe('Ahvenanmaa');
    expect(regionName('DK', '84', 'da')).toBe('Region Hovedstaden');
    expect(regionName('ES', 'CT', 'es')).toBe('Cataluña');
    expect(regionName('ES', 'CT', 'fr')).toBe('Catalogne');
    expect(regionName('ES', 'LE', 'en')).toBe('León');
    expect(regionName('IT', '25', 'it')).toBe('Lombardia');
    expect(regionName('IT', '25', 'de')).toBe('Lombardei');
    expect(regionName('IT', 'MI', 'it')).toBe('Milano');
    expect(regionName('IT', 'MI', 'en')).toBe('Milan');
    expect(regionName('IT', 'MI', 'pl')).toBe('Milano');
    expect(regionName('CH', 'GE', 'de')).toBe('Genf');
    expect(regionName('CH', 'GE', 'fr')).toBe('Genève');
    expect(regionName('FR', 'BRE', 'en')).toBe('Brittany');
    expect(regionName('FR', 'BRE', 'sv')).toBe('Bretagne');
  });

  it('keeps no English data-set name for a country of the sites’ languages in its own language', () => {
    const own: Record<string, Locale> = {
      PL: 'pl',
      SE: 'sv',
      DK: 'da',
      FI: 'fi',
      ES: 'es',
      IT: 'it',
      NO: 'no',
    };
    const englishWords = /\b(Voivodeship|County|Region of|Province|Metropolitan City|Islands|Community)\b/;
    for (const [country, locale] of Object.entries(own)) {
      for (const region of localizedRegionsOf(country, locale)) {
        expect(region.name, `${country} ${region.code}`).not.toMatch(englishWords);
      }
    }
  });

  it('geocodes with the region label in the request’s language', async () => {
    const amsterdam = await t.app.inject({
      url: '/api/geocode.php?lat=52.3676&lon=4.9041',
      headers: { 'accept-language': 'de-DE,de;q=0.9' },
    });
    expect(amsterdam.json()).toMatchObject({
      country: 'NL',
      countryregion: 'NH',
      region_label: 'Nordholland',
    });
  });

  it('gives profiles of an API answer their region label in the reader’s language', async () => {
    const labels = async (locale: Locale) => {
      const response = await t.app.inject({
        url: '/api/featured.php?limit=24',
        headers: { cookie: `locale=${locale}` },
      });
      const profiles = response.json().profiles as {
        country: string;
        countryregion: string | null;
        region_label: string | null;
      }[];
      expect(profiles.length).toBeGreaterThan(0);
      for (const profile of profiles) {
        expect(profile.region_label).toBe(regionName(profile.country, profile.countryregion, locale));
      }
      return profiles;
    };
    const italian = await labels('it');
    await labels('nl');
    const english = await labels('en');
    const localized = italian.find((profile, index) => profile.region_label !== english[index]?.region_label);
    expect(localized, 'some region reads differently in Italian').toBeDefined();
  });

  it('copies an answer instead of changing it in place', () => {
    const profile = { country: 'DE', countryregion: 'BY', region_label: 'Bavaria' };
    const answer = { profiles: [profile], other: { keep: true } };
    const localized = withRegionLabels(answer, 'it') as typeof answer;
    expect(localized.profiles[0]?.region_label).toBe('Baviera');
    expect(profile.region_label).toBe('Bavaria');
    expect(localized.other).toBe(answer.other);
    expect(withRegionLabels(answer, 'en')).toBe(answer);
  });
});
