import { describe, expect, it } from 'vitest';
import { cents, centsText, isoFromLocal, localFromIso } from './money-form.ts';

describe('money form fields', () => {
  it('reads typed prices as integer cents and hands anything else to the API to name', () => {
    expect(cents('14.99')).toBe(1499);
    expect(cents('14,9')).toBe(1490);
    expect(cents(' 15 ')).toBe(1500);
    expect(cents('0,05')).toBe(5);
    expect(cents('')).toBeUndefined();
    expect(cents(undefined)).toBeUndefined();
    expect(cents('14.999')).toBe('14.999');
    expect(cents('-3')).toBe('-3');
    expect(centsText(1499)).toBe('14.99');
    expect(centsText(null)).toBe('');
  });

  it('takes expiry times as UTC both ways; empty clears, nonsense goes to the API', () => {
    expect(isoFromLocal('2030-05-01T13:45')).toBe('2030-05-01T13:45:00Z');
    expect(isoFromLocal('')).toBeNull();
    expect(isoFromLocal(undefined)).toBeUndefined();
    expect(isoFromLocal('soon')).toBe('soon');
    expect(localFromIso('2030-05-01T13:45:00.000Z')).toBe('2030-05-01T13:45');
    expect(localFromIso(null)).toBe('');
  });
});
