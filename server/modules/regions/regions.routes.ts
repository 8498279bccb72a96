import { regionsEndpoints } from '#contract/endpoints/regions.ts';
import { interestOptions } from '#contract/profiles.ts';
import { routeOf } from '#server/lib/endpoint-route.ts';
import { loadCountryCoder } from '#server/lib/lazy-packages.ts';
import type { ZodApp } from '#server/lib/zod-app.ts';
import { localizedRegionsOf, regionName, regionsOf } from './regions.data.ts';

/** Bootstrap Icons names for the interests, for the web UI and outside clients alike. */
export const interestIcons: Record<(typeof interestOptions)[number], string> = {
  travelling: 'airplane',
  music: 'music-note-beamed',
  sports: 'trophy',
  wine: 'cup-straw',
  cooking: 'egg-fried',
  movies: 'film',
  reading: 'book',
  nature: 'tree',
  dancing: 'balloon-heart',
  fitness: 'bicycle',
  art: 'palette',
  gaming: 'controller',
  romance: 'heart',
  cuddling: 'emoji-heart-eyes',
  adventure: 'compass',
  roleplay: 'mask',
};

/** The region of a position: the nearest region centre of the country (offline). */
export function nearestRegion(country: string, lat: number, lon: number) {
  let best: { code: string; name: string } | null = null;
  let bestDistance = Number.POSITIVE_INFINITY;
  const cosLat = Math.cos((lat * Math.PI) / 180);
  for (const region of regionsOf(country)) {
    const dLat = region.latitude - lat;
    const dLon = (region.longitude - lon) * cosLat;
    const distance = dLat * dLat + dLon * dLon;
    if (distance < bestDistance) {
      bestDistance = distance;
      best = { code: region.code, name: region.name };
    }
  }
  return best;
}

const cacheForADay = 'public, max-age=86400';

export async function regionsRoutes(app: ZodApp): Promise<void> {
  routeOf(app, regionsEndpoints.getInterests, {}, async (_request, reply) => {
    reply.header('cache-control', cacheForADay);
    return { interests: interestOptions.map((id) => ({ id, icon: interestIcons[id] })) };
  });

  routeOf(app, regionsEndpoints.getRegions, {}, async (request, reply) => {
    reply.header('cache-control', cacheForADay);
    return { regions: localizedRegionsOf(request.query.country, request.locale) };
  });

  routeOf(
    app,
    regionsEndpoints.getGeocode,
    { config: { rateLimit: { max: 30, timeWindow: '1 minute' } } },
    async (request) => {
      const { iso1A2Code } = await loadCountryCoder();
      const country = iso1A2Code([request.query.lon, request.query.lat]) ?? null;
      const region = country ? nearestRegion(country, request.query.lat, request.query.lon) : null;
      return {
        country,
        countryregion: region?.code ?? null,
        region_label: country && region ? regionName(country, region.code, request.locale) : null,
      };
    },
  );
}
