import type { SiteRow, StaffingShift } from '#server/db/schema/sites.ts';

/**
 * A fictional profile counts as present this long after its team last answered as it (or picked up
 * one of its conversations) — the same window in which a member counts as online after a visit.
 */
export const presenceWindowMs = 5 * 60_000;

const clocks = new Map<string, Intl.DateTimeFormat>();

/** Weekday (Monday = 1) and minute of the day at `at` in `timeZone`. */
function localTime(at: Date, timeZone: string): { day: number; minute: number } {
  let format = clocks.get(timeZone);
  if (!format) {
    // One formatter per time zone: building one takes far longer than using it.
    format = new Intl.DateTimeFormat('en-GB', {
      timeZone,
      weekday: 'short',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    clocks.set(timeZone, format);
  }
  const parts = Object.fromEntries(format.formatToParts(at).map((part) => [part.type, part.value]));
  const day = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'].indexOf(parts.weekday ?? '') + 1;
  return { day, minute: Number(parts.hour) * 60 + Number(parts.minute) };
}

function minuteOf(time: string): number {
  const [hours, minutes] = time.split(':').map(Number);
  return (hours ?? 0) * 60 + (minutes ?? 0);
}

/**
 * Whether a site's team is on shift at `at`: no schedule means always, an empty one never. A shift
 * whose end is not after its start runs past midnight into the next day (22:00–02:00).
 */
export function isStaffed(site: Pick<SiteRow, 'staffingHours' | 'timezone'>, at: Date): boolean {
  const shifts: StaffingShift[] | null = site.staffingHours;
  if (shifts === null) return true;
  if (shifts.length === 0) return false;
  const { day, minute } = localTime(at, site.timezone);
  const yesterday = day === 1 ? 7 : day - 1;
  return shifts.some((shift) => {
    const from = minuteOf(shift.from);
    const to = minuteOf(shift.to);
    if (to > from) return shift.day === day && minute >= from && minute < to;
    return (shift.day === day && minute >= from) || (shift.day === yesterday && minute < to);
  });
}

/**
 * Online as the site shows it: a member within a few minutes of their last visit; a fictional
 * profile only while its team is on shift and has answered as it (or opened one of its
 * conversations) in that window — "online" promises that someone can answer.
 */
export function isOnline(
  profile: { fictional: boolean; lastActiveAt: Date },
  site: Pick<SiteRow, 'staffingHours' | 'timezone'>,
  now: Date,
): boolean {
  const recent = now.getTime() - profile.lastActiveAt.getTime() < presenceWindowMs;
  if (!recent) return false;
  return !profile.fictional || isStaffed(site, now);
}
