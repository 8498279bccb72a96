import { describe, expect, it } from 'vitest';
import { dateExample, dateOrder, parseDateInput } from './date-input.ts';

describe('date of birth as the language writes it', () => {
  it('reads day-month-year in Dutch and German, and ISO everywhere', () => {
    expect(dateOrder('nl')).toEqual(['day', 'month', 'year']);
    expect(parseDateInput('22-11-1990', 'nl')).toBe('1990-11-22');
    expect(parseDateInput('3.2.1985', 'de')).toBe('1985-02-03');
    expect(parseDateInput('22/11/1990', 'en')).toBe('1990-11-22');
    expect(parseDateInput('1990-11-22', 'fr')).toBe('1990-11-22');
    expect(dateExample('de')).toBe('22.11.1990');
  });

  it('refuses dates that do not exist and other text', () => {
    expect(parseDateInput('31-02-1990', 'nl')).toBeNull();
    expect(parseDateInput('hello', 'nl')).toBeNull();
    expect(parseDateInput('', 'nl')).toBeNull();
    expect(parseDateInput('1-1-90', 'nl')).toBeNull();
  });
});
