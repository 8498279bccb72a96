import type { Clock } from '#server/lib/clock.ts';
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
  private readonly kept = new Map<string, { general: number; until: number }>();

  constructor(
    private readonly ttlMs: number,
    private readonly clock: Clock,
  ) {}

  keyOf(filter: SearchFilter): string {
    return JSON.stringify(generalFilter(filter));
  }

  get(key: string): number | undefined {
    if (this.ttlMs === 0) return undefined;
    const found = this.kept.get(key);
    if (!found) return undefined;
    if (found.until <= this.clock.now().getTime()) {
      this.kept.delete(key);
      return undefined;
    }
    return found.general;
  }

  set(key: string, general: number): void {
    if (this.ttlMs === 0) return;
    if (this.kept.size >= keptLimit) this.kept.clear();
    this.kept.set(key, { general, until: this.clock.now().getTime() + this.ttlMs });
  }
}
