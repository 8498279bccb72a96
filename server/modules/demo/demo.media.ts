import type { Database } from '#server/db/client.ts';
import { loadSharp } from '#server/lib/lazy-packages.ts';
import type { MediaStorage } from '#server/lib/storage.ts';
import { processPhoto } from '#server/modules/photos/photo-processing.ts';
import { storePhotoVariants } from '#server/modules/photos/photos.service.ts';
import { fictionalProfilesWithoutPhotos, insertPhotos } from './demo.repository.ts';
import { demoGiftSlugs, seededRandom } from './demo.seed.ts';

const backgrounds = ['b6e3f4', 'c0aede', 'd1d4f9', 'ffd5dc', 'ffdfbf', 'e0f2f1', 'fde68a'];
const femaleTops = [
  'bigHair',
  'bob',
  'bun',
  'curly',
  'curvy',
  'frida',
  'longButNotTooLong',
  'miaWallace',
  'straight01',
  'straight02',
  'straightAndStrand',
] as const;
const maleTops = [
  'shortCurly',
  'shortFlat',
  'shortRound',
  'shortWaved',
  'sides',
  'theCaesar',
  'theCaesarAndSidePart',
  'dreads01',
  'frizzle',
  'shaggy',
] as const;

/** Avataaars hair colours for the profile's hair field, so the photo matches the details. */
const hairColours: Record<string, string[]> = {
  blonde: ['d6b370', 'b58143', 'ecdcbf'],
  brown: ['724133', '4a312c', 'a55728'],
  black: ['2c1b18'],
  red: ['c93305', 'a55728'],
  grey: ['e8e1e1'],
  bald: ['4a312c'],
};
const skinColours = ['614335', 'd08b5b', 'ae5d29', 'edb98a', 'ffdbb4'];
const facialHairs = ['beardLight', 'beardMedium', 'beardMajestic', 'moustacheFancy'] as const;
const glasses = ['prescription01', 'prescription02', 'round', 'kurt'] as const;
const clothesColours = [
  '262e33',
  '65c9ff',
  '5199e4',
  '25557c',
  'e6e6e6',
  '929598',
  'a7ffc4',
  'ffafb9',
  'ff488e',
  'ff5c5c',
  'ffffff',
];

type Person = { id: number; name: string; gender: 'male' | 'female' | null; hair: string | null };

/**
 * One fictional person's look: face, hair, skin, beard and glasses stay the same on every photo;
 * what changes from photo to photo is the expression, the clothes and the background.
 */
export function demoLook(person: Person) {
  const random = seededRandom(person.id * 7919 + 17);
  const pickOne = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const gender = person.gender ?? 'female';
  const bald = person.hair === 'bald' && gender === 'male';
  return {
    gender,
    top: pickOne(gender === 'female' ? femaleTops : maleTops),
    topProbability: bald ? 0 : 100,
    hairColor: pickOne(hairColours[person.hair ?? 'brown'] ?? hairColours.brown!),
    skinColor: pickOne(skinColours),
    facialHair: gender === 'male' && random() < 0.45 ? pickOne(facialHairs) : null,
    glasses: random() < 0.2 ? pickOne(glasses) : null,
  };
}

/** A cartoon portrait rendered to PNG: made here, nothing is downloaded. The same person on every photo. */
export async function renderAvatar(person: Person, variant: number): Promise<Buffer> {
  // Loaded when a portrait is first drawn (a fresh demo), not at every start: the styles are large.
  const [{ avataaars }, { createAvatar }] = await Promise.all([
    import('@dicebear/collection'),
    import('@dicebear/core'),
  ]);
  const look = demoLook(person);
  const svg = createAvatar(avataaars, {
    seed: `${person.id}-${person.name}-${variant}`,
    size: 512,
    backgroundColor: backgrounds,
    top: [look.top],
    topProbability: look.topProbability,
    hairColor: [look.hairColor],
    facialHairColor: [look.hairColor],
    skinColor: [look.skinColor],
    facialHair: look.facialHair ? [look.facialHair] : [],
    facialHairProbability: look.facialHair ? 100 : 0,
    accessories: look.glasses ? [look.glasses] : [],
    accessoriesProbability: look.glasses ? 100 : 0,
    mouth: ['smile', 'default', 'twinkle'],
    eyes: ['default', 'happy', 'wink', 'squint'],
    eyebrows: ['default', 'defaultNatural', 'raisedExcited', 'raisedExcitedNatural'],
    clothing: [
      'blazerAndShirt',
      'blazerAndSweater',
      'collarAndSweater',
      'hoodie',
      'shirtCrewNeck',
      'shirtScoopNeck',
      'shirtVNeck',
    ],
    clothesColor: clothesColours,
  }).toString();
  const sharp = await loadSharp();
  return sharp(Buffer.from(svg)).png().toBuffer();
}

const giftColours: Record<(typeof demoGiftSlugs)[number], string> = {
  rose: '#e11d48',
  heart: '#db2777',
  champagne: '#ca8a04',
  chocolate: '#7c2d12',
  teddy: '#a16207',
  ring: '#0ea5e9',
  kiss: '#be123c',
  star: '#f59e0b',
};

function giftSvg(slug: (typeof demoGiftSlugs)[number]): string {
  const colour = giftColours[slug];
  const heart =
    'M128 214 C 40 150 20 100 50 70 C 80 40 118 55 128 80 C 138 55 176 40 206 70 C 236 100 216 150 128 214 Z';
  const star = 'M128 30 L154 100 L228 100 L168 144 L190 216 L128 172 L66 216 L88 144 L28 100 L102 100 Z';
  const shape = slug === 'star' || slug === 'champagne' ? star : heart;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="256" height="256" viewBox="0 0 256 256">
    <circle cx="128" cy="128" r="124" fill="#fff5f7"/><path d="${shape}" fill="${colour}"/></svg>`;
}

/**
 * Runs `work` on the items two at a time, keeping their order. sharp's work runs on libuv's thread
 * pool (four threads), which also reads every file the server sends: a whole batch of photos at once
 * (up to 80) queued the page's scripts behind it, and a fresh start served them in ~2 s each.
 */
export async function mapTwoAtATime<T, R>(items: readonly T[], work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  // Both lanes take their next item from one iterator.
  const queue = items.entries();
  const lane = async () => {
    for (const [index, item] of queue) results[index] = await work(item);
  };
  await Promise.all([lane(), lane()]);
  return results;
}

/**
 * Photos for fictional members that have none (1 to 4 each; the ones after the first are premium
 * photos), and the gift images. Runs after the server listens, in batches, so a first start is quick.
 */
export async function generateDemoMedia(
  db: Database,
  storage: MediaStorage,
  options: { batchSize?: number; maxProfiles?: number } = {},
): Promise<number> {
  for (const slug of demoGiftSlugs) {
    const key = `gifts/${slug}.webp`;
    if (!(await storage.get(key))) {
      await storage.put(
        key,
        await (await loadSharp())(Buffer.from(giftSvg(slug)))
          .webp({ quality: 85 })
          .toBuffer(),
      );
    }
  }
  const batchSize = options.batchSize ?? 20;
  let done = 0;
  while (options.maxProfiles === undefined || done < options.maxProfiles) {
    const limit = Math.min(batchSize, (options.maxProfiles ?? Number.POSITIVE_INFINITY) - done);
    const profiles = await fictionalProfilesWithoutPhotos(db, limit);
    if (profiles.length === 0) break;
    const jobs = profiles.flatMap((profile) => {
      const random = seededRandom(profile.id);
      const count = 1 + Math.floor(random() * 4);
      return Array.from({ length: count }, (_, position) => ({ profile, position }));
    });
    const rows = await mapTwoAtATime(jobs, async ({ profile, position }) => {
      const processed = await processPhoto(await renderAvatar(profile, position));
      // Random keys like an upload's: originals private, blurred copies public.
      const keys = await storePhotoVariants(storage, processed);
      return {
        profileId: profile.id,
        position,
        ...keys,
        width: processed.width,
        height: processed.height,
      };
    });
    await insertPhotos(db, rows);
    done += profiles.length;
  }
  return done;
}
