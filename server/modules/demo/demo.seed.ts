import {
  bodyTypeOptions,
  eyeColourOptions,
  hairOptions,
  interestOptions,
  relationshipStatusOptions,
  tattooOptions,
} from '#contract/profiles.ts';
import type { Database, Transaction } from '#server/db/client.ts';
import { regionsOf } from '#server/modules/regions/regions.data.ts';
import {
  countFictionalProfiles,
  hasBundles,
  insertBundle,
  insertCompanies,
  insertFictionalMembers,
  insertGifts,
  insertSites,
  lockDemoSeeding,
  shiftFictionalDates,
  siteIdsByDomain,
} from './demo.repository.ts';
import { demoAboutInEveryLanguage, demoSeeking } from './demo-about.ts';
import { demoNames, languageAreaOf } from './demo-names.ts';
import { demoSiteTexts } from './demo-site-texts.ts';

/** A small seeded generator, so every seeding of the demo makes the same members. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pick = <T>(random: () => number, items: readonly T[]): T => items[Math.floor(random() * items.length)]!;

const profileFields = [
  'gender',
  'sexuality',
  'body_type',
  'hair',
  'eye_colour',
  'relationship_status',
  'tattoos',
  'interests',
];

export const demoSites = [
  {
    domain: 'localhost',
    isDefault: true,
    name: 'Amora',
    indexTitle: 'Amora – meet singles near you',
    description: 'Amora is the place to meet, chat and flirt with singles near you.',
    countries: ['NL', 'BE', 'DE', 'GB', 'US'],
    // An international site: no domain_language, so it opens in the browser's language
    // (docs/decisions/010-demo-default-site-follows-the-browser.md).
    domainLanguage: '',
    timezone: 'Europe/Amsterdam',
    usFooter: true,
    supportEmail: 'support@amora.localhost',
    mailFromName: 'Amora',
    mailFromAddress: 'no-reply@amora.localhost',
    themeColor: '#c2185b',
    supportPhone: '+31 20-123 45 67',
    signupCredits: 10,
    minimumMessageCosts: {
      NL: { costs: 25, currency: 'EUR' },
      BE: { costs: 25, currency: 'EUR' },
      DE: { costs: 25, currency: 'EUR' },
      GB: { costs: 22, currency: 'GBP' },
      US: { costs: 29, currency: 'USD' },
    },
    companyId: 1,
  },
  {
    domain: 'nl.localhost',
    isDefault: false,
    name: 'Flirtpunt',
    indexTitle: 'Flirtpunt – flirten en daten bij jou in de buurt',
    description: 'Op Flirtpunt ontmoet je singles bij jou in de buurt.',
    countries: ['NL', 'BE'],
    domainLanguage: 'nl',
    timezone: 'Europe/Amsterdam',
    usFooter: false,
    supportEmail: 'klantenservice@flirtpunt.localhost',
    mailFromName: 'Flirtpunt',
    mailFromAddress: 'berichten@flirtpunt.localhost',
    themeColor: '#00796b',
    supportPhone: '+31 85-765 43 21',
    signupCredits: 5,
    minimumMessageCosts: { NL: { costs: 25, currency: 'EUR' }, BE: { costs: 25, currency: 'EUR' } },
    companyId: 5,
  },
] as const;

const demoCompanies = [
  {
    id: 1,
    name: 'Amora Media B.V.',
    address: 'Herengracht 100',
    kvk: '12345678',
    city: 'Amsterdam',
    country: 'NL',
    tradenames: ['Amora'],
    vatNumbers: ['NL001234567B01'],
    supportPhone: '+31 20-123 45 67',
    deleteDiscount: 30,
    added: '2023-06-01',
  },
  {
    id: 5,
    name: 'Flirtpunt Online B.V.',
    address: 'Stationsplein 5',
    kvk: '87654321',
    city: 'Utrecht',
    country: 'NL',
    tradenames: ['Flirtpunt'],
    vatNumbers: ['NL009876543B01'],
    supportPhone: '+31 85-765 43 21',
    deleteDiscount: 25,
    added: '2024-03-15',
  },
];

/** Bundle sizes and prices (integer cents) per country. */
const demoBundles: { credits: number; prices: Record<string, [number, string]> }[] = [
  {
    credits: 25,
    prices: { NL: [1499, 'EUR'], BE: [1499, 'EUR'], DE: [1499, 'EUR'], GB: [1299, 'GBP'], US: [1699, 'USD'] },
  },
  {
    credits: 60,
    prices: { NL: [2999, 'EUR'], BE: [2999, 'EUR'], DE: [2999, 'EUR'], GB: [2599, 'GBP'], US: [3299, 'USD'] },
  },
  {
    credits: 130,
    prices: { NL: [5499, 'EUR'], BE: [5499, 'EUR'], DE: [5499, 'EUR'], GB: [4799, 'GBP'], US: [5999, 'USD'] },
  },
  {
    credits: 300,
    prices: {
      NL: [9999, 'EUR'],
      BE: [9999, 'EUR'],
      DE: [9999, 'EUR'],
      GB: [8799, 'GBP'],
      US: [10999, 'USD'],
    },
  },
];

export const demoGiftSlugs = [
  'rose',
  'heart',
  'champagne',
  'chocolate',
  'teddy',
  'ring',
  'kiss',
  'star',
] as const;

/** Ages 18–75, most members between 25 and 55. */
function demoAge(random: () => number): number {
  const spread = (random() + random() + random()) / 3;
  return Math.min(75, Math.max(18, Math.round(18 + spread * 57)));
}

function birthdateFor(age: number, random: () => number, today: Date): string {
  const date = new Date(Date.UTC(today.getUTCFullYear() - age - 1, today.getUTCMonth(), today.getUTCDate()));
  date.setUTCDate(date.getUTCDate() + 1 + Math.floor(random() * 360));
  return date.toISOString().slice(0, 10);
}

/**
 * The demo: two sites with their companies, credit bundles, gifts and fictional members spread over
 * the sites' countries, regions, genders, sexualities and ages. Running it again adds nothing twice.
 */
export async function seedDemo(
  db: Database,
  options: { profiles: number; today?: Date },
): Promise<{ createdProfiles: number }> {
  // Instances starting at once on one database seed one after the other: the second one finds the
  // demo in place (docs/decisions/009-limits-under-concurrency.md).
  return db.transaction(async (tx) => {
    await lockDemoSeeding(tx);
    return seedUnderLock(tx, options);
  });
}

/**
 * A demo restored from a database snapshot made at `seededAt` (server/db/snapshot.ts): its members'
 * dates move forward to `today`, as if seeded now. Nothing changes for a snapshot under a minute old.
 */
export async function refreshRestoredDemo(db: Database, seededAt: Date, today: Date): Promise<void> {
  const age = today.getTime() - seededAt.getTime();
  if (age > 60_000) await shiftFictionalDates(db, age);
}

async function seedUnderLock(
  db: Transaction,
  options: { profiles: number; today?: Date },
): Promise<{ createdProfiles: number }> {
  await insertCompanies(db, demoCompanies);
  await insertSites(
    db,
    demoSites.map((site) => ({
      ...site,
      countries: [...site.countries],
      texts: demoSiteTexts[site.domain] ?? {},
      visibleProfileFields: profileFields,
      visibleProfileNotes: ['about'],
      searchFields: ['gender', 'country', 'countryregion', 'age'],
    })),
  );
  if (!(await hasBundles(db))) {
    for (const [position, bundle] of demoBundles.entries()) {
      await insertBundle(
        db,
        { credits: bundle.credits, position },
        Object.entries(bundle.prices).map(([country, [amountCents, currency]]) => ({
          country,
          amountCents,
          currency,
        })),
      );
    }
  }
  await insertGifts(
    db,
    demoGiftSlugs.map((slug, position) => ({ slug, position, imageKey: `gifts/${slug}.webp` })),
  );

  const existing = await countFictionalProfiles(db);
  const wanted = Math.max(0, options.profiles - existing);
  if (wanted === 0) return { createdProfiles: 0 };

  const siteIds = await siteIdsByDomain(db);
  const countries = [...new Set(demoSites.flatMap((site) => site.countries))];
  const random = seededRandom(4242 + existing);
  const today = options.today ?? new Date();
  const members = Array.from({ length: wanted }, (_, index) => {
    const country = countries[(existing + index) % countries.length]!;
    const site = demoSites.find((candidate) => (candidate.countries as readonly string[]).includes(country))!;
    const gender = random() < 0.5 ? ('female' as const) : ('male' as const);
    const roll = random();
    const sexuality =
      roll < 0.82
        ? ('hetero' as const)
        : roll < 0.9
          ? gender === 'male'
            ? ('gay' as const)
            : ('lesbian' as const)
          : ('bi' as const);
    const names = demoNames[languageAreaOf[country] ?? 'en'][gender];
    const regions = regionsOf(country);
    const interests = interestOptions.filter(() => random() < 0.25);
    const lastActive = new Date(today.getTime() - Math.floor(random() * 14 * 24 * 3600 * 1000));
    const shownInterests = interests.length > 0 ? interests : [pick(random, interestOptions)];
    // Its own generator, so the members' other fields stay what they were. Written in every site
    // language: a reader sees the bio in theirs, the country's language is the one stored as about.
    const aboutTranslations = demoAboutInEveryLanguage(shownInterests, 9000 + existing + index, seededRandom);
    const about = aboutTranslations[languageAreaOf[country] ?? 'en'] ?? '';
    return {
      user: {
        siteId: siteIds.get(site.domain)!,
        status: 'active' as const,
        language: site.domainLanguage || (languageAreaOf[country] ?? 'en'),
        signupDate: lastActive,
      },
      profile: {
        name: pick(random, names),
        gender,
        sexuality,
        birthdate: birthdateFor(demoAge(random), random, today),
        country,
        countryregion: regions.length > 0 ? pick(random, regions).code : null,
        bodyType: pick(random, bodyTypeOptions),
        hair: pick(random, hairOptions),
        eyeColour: pick(random, eyeColourOptions),
        relationshipStatus: pick(random, relationshipStatusOptions),
        tattoos: pick(random, tattooOptions),
        seeking: demoSeeking(gender, sexuality),
        interests: shownInterests,
        about,
        aboutTranslations,
        fictional: true,
        lastActiveAt: lastActive,
        createdAt: lastActive,
      },
    };
  });
  for (let start = 0; start < members.length; start += 500) {
    await insertFictionalMembers(db, members.slice(start, start + 500));
  }
  return { createdProfiles: wanted };
}
