import { describe, expect, it } from 'vitest';
import { brandVariables, contrast, parseHex } from './brand.ts';

const white: [number, number, number] = [255, 255, 255];

describe('brand colours from the site theme colour', () => {
  it('uses a dark enough theme colour as it is', () => {
    const vars = brandVariables('#c2185b');
    expect(vars['--brand']).toBe('#c2185b');
    expect(vars['--bs-primary-rgb']).toBe('194, 24, 91');
  });

  it('darkens a light theme colour until white text on it reads at 4.5:1', () => {
    expect(contrast(parseHex('#1e88e5') ?? white, white)).toBeLessThan(4.5);
    const vars = brandVariables('#1e88e5');
    expect(vars['--brand']).not.toBe('#1e88e5');
    expect(contrast(parseHex(vars['--brand']) ?? white, white)).toBeGreaterThanOrEqual(4.5);
    expect(contrast(parseHex(vars['--brand-strong']) ?? white, white)).toBeGreaterThanOrEqual(4.5);
  });

  it('falls back to the default rose for a missing or malformed colour', () => {
    expect(brandVariables(undefined)['--brand']).toBe('#c2185b');
    expect(brandVariables('red; } body { display: none')['--brand']).toBe('#c2185b');
  });
});
