import type { PhotoHoldReason, PhotoScreening } from '#server/db/schema/photos.ts';
import type { PhotoScreeningSettings } from '#server/db/schema/sites.ts';

/** What the models found in one image (photos/screening-models.ts). */
export type ScreeningScores = {
  /** nsfwjs's classes: Drawing, Hentai, Neutral, Porn, Sexy (0–1, summing to about 1). */
  nudity: Record<string, number>;
  /** Every face the detector found, with its apparent age in years. */
  faces: { score: number; age: number }[];
};

/**
 * Defaults when a site sets nothing (docs/decisions/045). The packages' own clothed group photo
 * `demo/sample2.jpg` rates Porn 0.46–0.63, so `explicit` sits below that: such a photo goes to a
 * person, who approves it; nothing is ever rejected without one. Age estimates are off by a few
 * years either way, so apparent ages under 18 + 4 wait for a moderator first.
 */
export const defaultScreeningSettings = {
  explicit: 0.4,
  minorMargin: 4,
  faceRequired: true,
} as const satisfies Required<PhotoScreeningSettings>;

export function screeningSettings(site: PhotoScreeningSettings): Required<PhotoScreeningSettings> {
  return {
    explicit: site.explicit ?? defaultScreeningSettings.explicit,
    minorMargin: site.minorMargin ?? defaultScreeningSettings.minorMargin,
    faceRequired: site.faceRequired ?? defaultScreeningSettings.faceRequired,
  };
}

/** The scores as stored and shown in the photo queue (three decimals are plenty). */
export function screeningRecord(scores: ScreeningScores): PhotoScreening {
  const round = (value: number) => Math.round(value * 1000) / 1000;
  const ages = scores.faces.map((face) => face.age);
  return {
    nudity: Object.fromEntries(Object.entries(scores.nudity).map(([label, score]) => [label, round(score)])),
    faces: scores.faces.length,
    min_age_estimate: ages.length > 0 ? Math.round(Math.min(...ages) * 10) / 10 : null,
  };
}

/**
 * Why a photo waits for a moderator, or null when others may see it. An apparent minor comes first
 * (that queue is worked first), then explicit content, then a main photo without a face where the
 * site asks for one. A chat photo is no main photo: a face is never required there.
 */
export function holdReason(
  scores: ScreeningScores,
  settings: Required<PhotoScreeningSettings>,
  photo: { main: boolean },
): PhotoHoldReason | null {
  if (scores.faces.some((face) => face.age < 18 + settings.minorMargin)) return 'apparent_minor';
  const explicit = Math.max(scores.nudity.Porn ?? 0, scores.nudity.Hentai ?? 0);
  if (explicit >= settings.explicit) return 'explicit';
  if (settings.faceRequired && photo.main && scores.faces.length === 0) return 'no_face';
  return null;
}
