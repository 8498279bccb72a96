import type { Photo, Profile } from '#contract/profiles.ts';
import type { ProfileRow } from '#server/db/schema/members.ts';
import type { PhotoRow } from '#server/db/schema/photos.ts';
import type { SiteRow } from '#server/db/schema/sites.ts';
import { ageOn } from '#server/lib/age.ts';
import type { MediaStorage } from '#server/lib/storage.ts';
import { regionsOf } from '#server/modules/regions/regions.data.ts';

export type ViewContext = { storage: MediaStorage; site: SiteRow; today: Date };

export function regionLabel(country: string, code: string | null): string | null {
  if (!code) return null;
  return regionsOf(country).find((region) => region.code === code)?.name ?? null;
}

/** A profile as the API shows it. The main photo is never a premium photo, so it is always the original. */
export function toProfile(row: ProfileRow, mainPhoto: PhotoRow | undefined, ctx: ViewContext): Profile {
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
  };
}

/**
 * Photos in order. Those after the first are premium photos: a viewer who may not see them gets the
 * URLs of the blurred copies, never of the originals.
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
    };
  });
}
