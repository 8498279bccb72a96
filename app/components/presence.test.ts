import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createI18n } from '#app/lib/i18n.ts';
import type { LocaleResources } from '#contract/i18n.ts';
import type { Locale } from '#contract/locales.ts';
import { presenceOf } from './presence.tsx';

function translatorFor(locale: Locale) {
  const dir = path.resolve(process.cwd(), 'locales', locale);
  const resources: LocaleResources = Object.fromEntries(
    readdirSync(dir)
      .filter((file) => file.endsWith('.json'))
      .map((file) => [file.slice(0, -5), JSON.parse(readFileSync(path.join(dir, file), 'utf8'))]),
  );
  const i18n = createI18n(locale, resources);
  return i18n.getFixedT(locale);
}

const now = Date.parse('2026-11-27T12:00:00Z');
const ago = (ms: number, online = false, fictional = false) => ({
  last_active: new Date(now - ms).toISOString(),
  online,
  fictional,
});
const minute = 60_000;
const hour = 60 * minute;
const day = 24 * hour;

describe('presence', () => {
  const en = translatorFor('en');

  it('is online when the server says so, and says nothing of a bad date', () => {
    expect(presenceOf(ago(4 * minute, true), en, now)).toEqual({ online: true, ago: null });
    expect(presenceOf({ last_active: 'not a date', online: true, fictional: false }, en, now)).toEqual({
      online: false,
      ago: null,
    });
  });

  it('tells how recent a member was active when the server does not say "online"', () => {
    expect(presenceOf(ago(2 * minute), en, now)).toEqual({ online: false, ago: '2 minutes ago' });
    expect(presenceOf(ago(10_000), en, now).ago).toBe('1 minute ago');
  });

  it('shows a fictional profile online while its team answers, and no "active … ago" otherwise', () => {
    expect(presenceOf(ago(2 * minute, true, true), en, now)).toEqual({ online: true, ago: null });
    expect(presenceOf(ago(2 * minute, false, true), en, now)).toEqual({ online: false, ago: null });
    expect(presenceOf(ago(11 * day, false, true), en, now)).toEqual({ online: false, ago: null });
  });

  it('says minutes, hours, yesterday and days in the plural forms of the language', () => {
    expect(presenceOf(ago(5 * minute), en, now).ago).toBe('5 minutes ago');
    expect(presenceOf(ago(hour), en, now).ago).toBe('1 hour ago');
    expect(presenceOf(ago(3 * hour), en, now).ago).toBe('3 hours ago');
    expect(presenceOf(ago(day + hour), en, now).ago).toBe('yesterday');
    expect(presenceOf(ago(5 * day), en, now).ago).toBe('5 days ago');
    const pl = translatorFor('pl');
    expect(presenceOf(ago(22 * minute), pl, now).ago).toBe('22 minuty temu');
    expect(presenceOf(ago(25 * minute), pl, now).ago).toBe('25 minut temu');
    expect(presenceOf(ago(hour), pl, now).ago).toBe('1 godzinę temu');
    expect(presenceOf(ago(2 * day), pl, now).ago).toBe('2 dni temu');
    expect(presenceOf(ago(3 * hour), translatorFor('de'), now).ago).toBe('vor 3 Stunden');
  });

  it('leaves out an absence of two weeks or more', () => {
    expect(presenceOf(ago(14 * day), en, now)).toEqual({ online: false, ago: null });
  });
});
