import { describe, expect, it } from 'vitest';
import { isCatalogFile } from './i18n.ts';

describe('isCatalogFile', () => {
  it('takes namespaces of texts', () => {
    expect(isCatalogFile({})).toBe(true);
    expect(isCatalogFile({ site: { 'nav.home': 'Home' }, mail: {} })).toBe(true);
  });

  it('refuses anything else, so a broken file never hydrates a page into keys', () => {
    for (const broken of [
      null,
      'text',
      [],
      [{ a: 'b' }],
      { site: 'Home' },
      { site: ['Home'] },
      { site: { n: 1 } },
      { site: null },
    ])
      expect(isCatalogFile(broken), JSON.stringify(broken)).toBe(false);
  });
});
