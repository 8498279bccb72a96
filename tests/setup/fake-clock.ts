import type { Clock } from '../../server/lib/clock.ts';

/** A clock the test moves by hand; it starts at the real time. */
export function createFakeClock(
  start = new Date(),
): Clock & { advanceMinutes(minutes: number): void; advanceDays(days: number): void } {
  let now = start.getTime();
  return {
    now: () => new Date(now),
    advanceMinutes(minutes) {
      now += minutes * 60_000;
    },
    advanceDays(days) {
      now += days * 24 * 3_600_000;
    },
  };
}
