/** The member's night in the site's time zone: no nudge or offer goes out from 22:00 to 08:00. */
export const quietHours = { from: 22, to: 8 } as const;

function wallClock(timeZone: string, now: Date) {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
  }).formatToParts(now);
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((item) => item.type === type)?.value ?? '';
  return { date: `${part('year')}-${part('month')}-${part('day')}`, hour: Number(part('hour')) };
}

/** The day in the site's time zone (`YYYY-MM-DD`): the daily cap counts these days. */
export function localDateIn(timeZone: string, now: Date): string {
  return wallClock(timeZone, now).date;
}

/** Whether it is night in the site's time zone; a nudge waits for the first run after 08:00. */
export function isQuietHour(timeZone: string, now: Date): boolean {
  const { hour } = wallClock(timeZone, now);
  return hour >= quietHours.from || hour < quietHours.to;
}
