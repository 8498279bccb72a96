/**
 * The site's theme colour (per-site branding, `settings.theme_color`) as the CSS variables the
 * stylesheets read (app/styles/_brand.scss). Text and buttons on white need 4.5:1, so a light
 * theme colour is darkened for them (`--brand-strong`) while the soft tint stays light.
 */

type Rgb = [number, number, number];

const fallback = '#c2185b';

export function parseHex(hex: string): Rgb | null {
  const match = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex.trim());
  if (!match) return null;
  return [
    Number.parseInt(match[1] ?? '0', 16),
    Number.parseInt(match[2] ?? '0', 16),
    Number.parseInt(match[3] ?? '0', 16),
  ];
}

function toHex([r, g, b]: Rgb): string {
  return `#${[r, g, b].map((part) => Math.round(part).toString(16).padStart(2, '0')).join('')}`;
}

function channel(value: number): number {
  const c = value / 255;
  return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
}

export function luminance([r, g, b]: Rgb): number {
  return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
}

/** WCAG contrast ratio between two colours. */
export function contrast(a: Rgb, b: Rgb): number {
  const [la, lb] = [luminance(a), luminance(b)];
  return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
}

function mix(color: Rgb, target: Rgb, amount: number): Rgb {
  const at = (i: 0 | 1 | 2) => color[i] + (target[i] - color[i]) * amount;
  return [at(0), at(1), at(2)];
}

const white: Rgb = [255, 255, 255];
const black: Rgb = [0, 0, 0];

/** Darkens the colour in small steps until white text on it (and it on white) reads at 4.5:1. */
export function readableOnWhite(color: Rgb): Rgb {
  let current = color;
  for (let step = 0; step < 20 && contrast(current, white) < 4.5; step += 1)
    current = mix(current, black, 0.08);
  return current;
}

export type BrandVariables = Record<
  | '--brand'
  | '--brand-strong'
  | '--brand-soft'
  | '--bs-primary'
  | '--bs-primary-rgb'
  | '--bs-link-color'
  | '--bs-link-color-rgb'
  | '--bs-link-hover-color'
  | '--bs-link-hover-color-rgb',
  string
>;

/** The CSS custom properties for a theme colour; an invalid colour falls back to the default rose. */
export function brandVariables(themeColor: string | null | undefined): BrandVariables {
  const base = parseHex(themeColor ?? '') ?? parseHex(fallback) ?? [194, 24, 91];
  const brand = readableOnWhite(base);
  const strong = mix(brand, black, 0.18);
  const soft = mix(base, white, 0.9);
  const rgb = brand.map(Math.round).join(', ');
  const strongRgb = strong.map(Math.round).join(', ');
  return {
    '--brand': toHex(brand),
    '--brand-strong': toHex(strong),
    '--brand-soft': toHex(soft),
    '--bs-primary': toHex(brand),
    '--bs-primary-rgb': rgb,
    '--bs-link-color': toHex(brand),
    '--bs-link-color-rgb': rgb,
    '--bs-link-hover-color': toHex(strong),
    '--bs-link-hover-color-rgb': strongRgb,
  };
}
