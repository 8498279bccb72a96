import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadTranslations } from '#server/lib/i18n.ts';
import { pageTitlesOf } from './meta.ts';

/** Every key a route names its page by: `pageMeta(matches, '<key>'…)`. */
function pageTitleKeys(dir: string): string[] {
  const keys: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) keys.push(...pageTitleKeys(file));
    else if (entry.name.endsWith('.tsx'))
      for (const match of readFileSync(file, 'utf8').matchAll(/pageMeta\(matches, '([^']+)'/g))
        keys.push(match[1] ?? '');
  }
  return keys;
}

describe('the page titles the root loader sends', () => {
  it('hold the title of every page, in every language', () => {
    const keys = pageTitleKeys(path.resolve('app/routes'));
    expect(keys).toContain('footer.language');
    for (const [locale, resources] of Object.entries(loadTranslations())) {
      const titles = pageTitlesOf(resources);
      for (const key of [...keys, 'title.withSite']) expect(titles[key], `${locale} ${key}`).toBeTruthy();
    }
  });
});
