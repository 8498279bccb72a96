import type { Page } from '@playwright/test';
import axe, { type AxeResults, type RunOptions } from 'axe-core';
import { expect } from './fixtures.ts';

/**
 * What the accessibility sweeps share (accessibility-public.spec.ts for visitors,
 * accessibility.spec.ts for members and staff): every page at a phone's and a desktop's width,
 * checked by axe with its experimental rules on top of the default ones (WCAG 2.0–2.2 A and AA and
 * the best practices): not one serious or critical violation. One session per audience for both
 * widths.
 */
export const sizes = [
  { name: 'phone', width: 390, height: 844 },
  { name: 'desktop', width: 1366, height: 900 },
] as const;

/** WCAG 2.0–2.2 A and AA, axe's best practices, and its experimental rules, off by default. */
export const tags = [
  'wcag2a',
  'wcag2aa',
  'wcag21a',
  'wcag21aa',
  'wcag22a',
  'wcag22aa',
  'best-practice',
  'experimental',
];

declare global {
  interface Window {
    axe?: typeof axe;
  }
}

/**
 * axe-core run inside the page itself (axe.run), put into each document once. @axe-core/playwright's
 * builder sent axe's 640 KB source to the page twice on every check (its legacy run, else its
 * default one finished each check in a fresh blank tab): ~250 ms a check where a check in a page
 * that has axe already takes ~50 ms, and the sweeps check every page twice (both widths). These
 * pages embed no frame for a per-frame run to matter.
 */
class PageAxe {
  private runOptions: RunOptions = {};

  constructor(private readonly page: Page) {}

  withTags(values: string[]): this {
    this.runOptions = { ...this.runOptions, runOnly: { type: 'tag', values } };
    return this;
  }

  options(options: RunOptions): this {
    this.runOptions = { ...this.runOptions, ...options };
    return this;
  }

  async analyze(): Promise<AxeResults> {
    if (!(await this.page.evaluate(() => typeof window.axe === 'object')))
      await this.page.evaluate(axe.source);
    return this.page.evaluate((options) => {
      if (!window.axe) throw new Error('axe-core did not load into the page');
      return window.axe.run(document, options);
    }, this.runOptions);
  }
}

export const pageAxe = (page: Page) => new PageAxe(page);

export const axeOf = (page: Page) =>
  pageAxe(page)
    .withTags(tags)
    .options({ resultTypes: ['violations'] });

export async function seriousViolations(page: Page, label: string): Promise<string[]> {
  // A settled page: no colour caught halfway through a transition.
  await page.emulateMedia({ reducedMotion: 'reduce' });
  const { violations } = await axeOf(page).analyze();
  return violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) =>
        `${label}: ${violation.id} ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
    );
}

/**
 * Opens a page and waits until React has hydrated it; a failure names the page. A lander is plain
 * HTML, and the 404 page stays the server's: those are checked once loaded.
 */
export async function open(page: Page, path: string): Promise<void> {
  const answer = await page.goto(path);
  const scripted = await page
    .locator('script[type="text/x-module-after-paint"], script[type="module"]')
    .count();
  if (scripted === 0 || answer?.status() === 404) return;
  await expect(page.locator('html'), path).toHaveAttribute('data-hydrated', 'true', { timeout: 15_000 });
}

/** The first link on the page whose address matches, as a path (a detail page to visit next). */
export async function firstLink(page: Page, pattern: RegExp): Promise<string> {
  const hrefs = await page
    .locator('a[href]')
    .evaluateAll((links) => links.map((link) => link.getAttribute('href') ?? ''));
  const found = hrefs.find((href) => pattern.test(href));
  expect(found, `a link like ${pattern} on ${page.url()}`).toBeTruthy();
  return found ?? '';
}

/**
 * The serious violations of the open page at each size in turn: the page is loaded once and
 * resized, as a phone turned or a window dragged narrower would, and checked once it has laid out
 * again (half the page loads of a sweep that opened every page at each size).
 */
export async function atEverySize(page: Page, label: string): Promise<string[]> {
  const violations: string[] = [];
  for (const size of sizes) {
    await page.setViewportSize(size);
    await page.evaluate(
      () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
    );
    violations.push(...(await seriousViolations(page, `${size.name} ${label}`)));
  }
  return violations;
}
