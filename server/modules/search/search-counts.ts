import type { Clock } from '#server/lib/clock.ts';
import { TtlCache } from '#server/lib/ttl-cache.ts';
import { generalFilter, type SearchFilter } from './search.repository.ts';

/** Filters kept at most: a filter is a few hundred bytes; past this the memory starts over. */
const keptLimit = 10_000;

/**
 * The general part of search counts (search.repository.ts), kept per filter for `ttlMs`: at a
 * million profiles it was half of a search's time, and every member who searches with the same
 * filter (country, gender, ages) shares it. The viewer's own deductions are always counted, so a
 * block shows at once; a new or removed member shows in others' counts within `ttlMs`.
 * `ttlMs` 0: off (every search counts both parts).
 */
export class SearchCounts {
  private readonly kept: TtlCache<{ general: number }>;

  constructor(ttlMs: number, clock: Clock) {
    this.kept = new TtlCache(ttlMs, { maxEntries: keptLimit }, () => clock.now().getTime());
  }

  keyOf(filter: SearchFilter): string {
    return JSON.stringify(generalFilter(filter));
  }

  get(key: string): number | undefined {
    return this.kept.get(key)?.general;
  }

  set(key: string, general: number): void {
    this.kept.set(key, { general });
  }
}
