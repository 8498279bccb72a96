import { State } from 'country-state-city';

export type Region = { code: string; name: string; latitude: number; longitude: number };

/** Overseas parts that a member would not pick as their region of the country. */
const overseas: Record<string, Set<string>> = {
  NL: new Set(['BQ1', 'BQ2', 'BQ3', 'AW', 'CW', 'SX']),
  US: new Set([
    'AS',
    'GU',
    'MP',
    'PR',
    'UM',
    'VI',
    'UM-81',
    'UM-84',
    'UM-86',
    'UM-67',
    'UM-89',
    'UM-71',
    'UM-76',
    'UM-95',
    'UM-79',
  ]),
  FR: new Set(['BL', 'MF', 'PM', 'WF', 'PF', 'NC', 'TF', 'CP', 'GP', 'MQ', 'GF', 'RE', 'YT']),
};

const cache = new Map<string, Region[]>();

/** The administrative regions of a country (provinces, states, counties), offline. */
export function regionsOf(country: string): Region[] {
  const cached = cache.get(country);
  if (cached) return cached;
  const skip = overseas[country] ?? new Set<string>();
  const regions = State.getStatesOfCountry(country)
    .filter((state) => !skip.has(state.isoCode) && state.latitude && state.longitude)
    .map((state) => ({
      code: state.isoCode,
      name: state.name,
      latitude: Number(state.latitude),
      longitude: Number(state.longitude),
    }));
  cache.set(country, regions);
  return regions;
}
