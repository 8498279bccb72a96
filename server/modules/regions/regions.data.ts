import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Locale } from '#contract/locales.ts';
import { regionNames } from './region-names.ts';
import { europeanRegionNames } from './region-names-europe.ts';

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

type StateEntry = { name: string; isoCode: string; countryCode: string; latitude: string; longitude: string };

/**
 * The regions of every country, by country code, read once on first use from country-state-city's
 * state list only (about 0.5 MB). The package's entry point would also load its 8 MB city list,
 * which costs a process some 60 MB that nothing here needs.
 */
let byCountry: Map<string, Region[]> | undefined;

function allRegions(): Map<string, Region[]> {
  if (byCountry) return byCountry;
  const file = createRequire(import.meta.url).resolve('country-state-city/lib/assets/state.json');
  const states = JSON.parse(readFileSync(file, 'utf8')) as StateEntry[];
  const result = new Map<string, Region[]>();
  for (const state of states) {
    if (overseas[state.countryCode]?.has(state.isoCode) || !state.latitude || !state.longitude) continue;
    const list = result.get(state.countryCode) ?? [];
    list.push({
      code: state.isoCode,
      name: state.name,
      latitude: Number(state.latitude),
      longitude: Number(state.longitude),
    });
    result.set(state.countryCode, list);
  }
  // In name order, as the package's getStatesOfCountry gives them (the demo seed picks by position).
  for (const list of result.values()) list.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  byCountry = result;
  return result;
}

/** The administrative regions of a country (provinces, states, counties), offline, names in English. */
export function regionsOf(country: string): Region[] {
  return allRegions().get(country) ?? [];
}

/**
 * A region's name in the reader's language: the translated name where one is kept; for English
 * readers the data set's English name; else the name used in the region itself; for countries
 * without kept names the data set's name; null for an unknown code.
 */
export function regionName(country: string, code: string | null, locale: Locale): string | null {
  if (!code) return null;
  const dataSetName = () => regionsOf(country).find((region) => region.code === code)?.name;
  const names = regionNames[country]?.[code] ?? europeanRegionNames[country]?.[code];
  if (names) return names[locale] ?? (locale === 'en' ? dataSetName() : undefined) ?? names.local;
  return dataSetName() ?? null;
}

/** The regions of a country with their names in the reader's language, in that language's order. */
export function localizedRegionsOf(country: string, locale: Locale): { code: string; name: string }[] {
  const collator = new Intl.Collator(locale === 'no' ? 'nb' : locale);
  return regionsOf(country)
    .map(({ code }) => ({ code, name: regionName(country, code, locale) ?? code }))
    .sort((a, b) => collator.compare(a.name, b.name));
}
