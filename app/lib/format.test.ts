import { describe, expect, it } from 'vitest';
import { formatDate, formatMoney } from './format.ts';

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
});
