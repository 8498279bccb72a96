import { describe, expect, it } from 'vitest';
import { formatDate, formatMoney, formatRecent } from './format.ts';

describe('formatting', () => {
  it('uses the nl date locale by default and the member language otherwise', () => {
    const date = new Date(Date.UTC(2026, 2, 5, 12));
    expect(formatDate(date)).toBe(formatDate(date, 'nl'));
    expect(formatDate(date, undefined, { month: 'long', timeZone: 'UTC' })).toBe('maart');
    expect(formatDate(date, 'de', { month: 'long', timeZone: 'UTC' })).toBe('März');
    expect(formatDate(date, 'no', { month: 'long', timeZone: 'UTC' })).toBe('mars');
  });

  it('formats integer cents as money in the locale', () => {
    expect(formatMoney(1499, 'EUR', 'nl')).toMatch(/€\s?14,99/);
    expect(formatMoney(1299, 'GBP', 'en')).toBe('£12.99');
  });

  it('writes English dates the European way, not the US way', () => {
    const date = new Date(Date.UTC(2026, 10, 22, 11, 54));
    const english = formatDate(date, 'en', { dateStyle: 'short', timeStyle: 'short', timeZone: 'UTC' });
    expect(english).toBe('22/11/2026, 11:54');
    expect(english).not.toContain('AM');
  });

  it('shows a chat message’s time today, "Yesterday", the weekday within a week, else the date', () => {
    const timeZone = 'Europe/Amsterdam';
    const now = new Date('2026-11-25T10:00:00Z'); // a Wednesday
    const at = (iso: string, locale: Parameters<typeof formatRecent>[1], withTime = false) =>
      formatRecent(new Date(iso), locale, { now, timeZone, withTime });
    expect(at('2026-11-25T11:26:00Z', 'nl')).toBe('12:26');
    expect(at('2026-11-24T11:26:00Z', 'en')).toBe('Yesterday');
    expect(at('2026-11-24T11:26:00Z', 'de')).toBe('Gestern');
    expect(at('2026-11-24T11:26:00Z', 'fi', true)).toBe('Eilen 12.26');
    expect(at('2026-11-23T11:26:00Z', 'pl')).toBe('Poniedziałek');
    expect(at('2026-11-23T11:26:00Z', 'en')).toBe('Monday');
    expect(at('2026-11-10T11:26:00Z', 'nl')).toBe('10-11-2026');
    // Just after midnight in Amsterdam is already "today" there, though still yesterday in UTC.
    expect(at('2026-11-24T23:30:00Z', 'en')).toBe('00:30');
  });
});
