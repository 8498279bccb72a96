import { describe, expect, it } from 'vitest';
import { createI18n } from './i18n.ts';
import { rememberingTranslator } from './use-translation.ts';

describe('the remembering translator', () => {
  const resources = {
    common: { hello: 'Hello {name}', item_one: '{count} item', item_other: '{count} items', plain: 'Plain' },
  };

  /** A remembering translator over i18next's, counting the calls that reach i18next. */
  function countedTranslator() {
    const fixed = createI18n('en', resources).getFixedT('en');
    let asked = 0;
    const counting = ((...args: Parameters<typeof fixed>) => {
      asked++;
      return fixed(...args);
    }) as unknown as typeof fixed;
    return { t: rememberingTranslator(counting), asked: () => asked };
  }

  it('answers as i18next does, and asks it once per key and plain values', () => {
    const { t, asked } = countedTranslator();
    expect(t('plain')).toBe('Plain');
    expect(t('plain')).toBe('Plain');
    expect(t('hello', { name: 'Ana' })).toBe('Hello Ana');
    expect(t('hello', { name: 'Bo' })).toBe('Hello Bo');
    expect(t('hello', { name: 'Ana' })).toBe('Hello Ana');
    expect(t('item', { count: 1 })).toBe('1 item');
    expect(t('item', { count: 2 })).toBe('2 items');
    // A number and its string are different values: "1" must not pick the answer of 1.
    expect(t('hello', { name: 1 })).toBe('Hello 1');
    expect(t('hello', { name: '1' })).toBe('Hello 1');
    expect(asked()).toBe(7);
  });

  it('hands a call with other options to i18next every time', () => {
    const { t, asked } = countedTranslator();
    const values = { name: { first: 'Ana' } };
    t('hello', values);
    t('hello', values);
    expect(asked()).toBe(2);
  });
});
