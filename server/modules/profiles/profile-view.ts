import { defaultLocale } from '#contract/locales.ts';
import type { Photo, Profile } from '#contract/profiles.ts';
import type { ProfileRow, UserRow } from '#server/db/schema/members.ts';
import type { PhotoRow } from '#server/db/schema/photos.ts';
import type { SiteRow } from '#server/db/schema/sites.ts';
import { ageOn } from '#server/lib/age.ts';
import type { MediaStorage } from '#server/lib/storage.ts';
import { regionName } from '#server/modules/regions/regions.data.ts';
import { isOnline } from '#server/modules/sites/staffing.ts';
import { type AboutTranslations, aboutByLocale } from './localized-about.ts';

/**
 * Whether visitors and ad pages (home, landers, member landings) may show this profile: a fictional
 * one, or a confirmed member who opted in from the settings (off by default). Real members are
 * never shown to the public otherwise.
 */
export function inPublicPool(profile: ProfileRow, owner: Pick<UserRow, 'status'>): boolean {
  return profile.fictional || (profile.publicProfile && owner.status === 'active');
}

/** `today` is the moment of the answer: ages and presence are as of then. */
export type ViewContext = { storage: MediaStorage; site: SiteRow; today: Date };

/** The label in the default language; API answers carry it in the reader's (regions/region-labels.ts). */
export function regionLabel(country: string, code: string | null): string | null {
  return regionName(country, code, defaultLocale);
}

/**
 * A profile as the API shows it. The main photo is never a premium photo, so it is always the original.
 * Its about text in other languages rides along for the answer's reader (localized-about.ts).
 */
export function toProfile(
  row: ProfileRow,
  mainPhoto: PhotoRow | undefined,
  ctx: ViewContext,
): Profile & { [aboutByLocale]?: AboutTranslations } {
  const url = (key: string) => ctx.storage.url(key, ctx.site.cdnPrefix);
  return {
    id: row.id,
    name: row.name,
    age: ageOn(row.birthdate, ctx.today),
    gender: row.gender,
    seeking: row.seeking,
    sexuality: row.sexuality,
    country: row.country,
    countryregion: row.countryregion,
    region_label: regionLabel(row.country, row.countryregion),
    status: row.status,
    fictional: row.fictional,
    main_image: mainPhoto
      ? {
          filename: url(mainPhoto.mainKey),
          thumb_filename: url(mainPhoto.thumbKey),
          match: url(mainPhoto.mainKey),
        }
      : null,
    body_type: row.bodyType as Profile['body_type'],
    hair: row.hair as Profile['hair'],
    eye_colour: row.eyeColour as Profile['eye_colour'],
    relationship_status: row.relationshipStatus as Profile['relationship_status'],
    tattoos: row.tattoos as Profile['tattoos'],
    interests: row.interests,
    about: row.about,
    last_active: row.lastActiveAt.toISOString(),
    online: isOnline(row, ctx.site, ctx.today),
    ...(row.about && Object.keys(row.aboutTranslations).length > 0
      ? { [aboutByLocale]: row.aboutTranslations }
      : {}),
  };
}

/**
 * Photos in order. Those after the first are premium photos: a viewer who may not see them gets the
 * URLs of the blurred copies (public, random names), never of the originals. Originals are private
 * objects: `storage.url` gives a signed link that expires, so what a viewer got here is all they can
 * load (docs/decisions/008-private-media.md).
 */
export function toPhotos(rows: PhotoRow[], ctx: ViewContext & { canSeePremium: boolean }): Photo[] {
  const url = (key: string) => ctx.storage.url(key, ctx.site.cdnPrefix);
  return rows.map((row, index) => {
    const premium = index > 0;
    const locked = premium && !ctx.canSeePremium;
    return {
      id: row.id,
      filename: url(locked ? row.blurredKey : row.mainKey),
      thumb_filename: url(locked ? row.blurredThumbKey : row.thumbKey),
      premium,
      locked,
      status: row.status,
      hold_reason: row.holdReason,
    };
  });
}
