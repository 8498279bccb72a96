/**
 * Landing-page weight and speed on a phone: Debian's Chromium loads each lander of a running server
 * (default http://localhost:3000) and reports navigation timing and transferred bytes.
 * Usage: node --import tsx bench/landers.ts [baseUrl]
 */
import { execSync } from 'node:child_process';
import { chromium } from '@playwright/test';

const base = process.argv[2] ?? 'http://localhost:3000';
const landers = [
  'alonetonight',
  'collagelanding',
  'gallery',
  'iconslanding',
  'maplanding',
  'socialnetwork',
  'transitionsvideolanding',
  'video',
  'tinderswipe',
];

const browser = await chromium.launch({
  executablePath: execSync('which chromium', { encoding: 'utf8' }).trim(),
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
});
try {
  const rows = [];
  for (const name of landers) {
    const context = await browser.newContext({
      viewport: { width: 390, height: 844 },
      deviceScaleFactor: 2,
      isMobile: true,
    });
    const page = await context.newPage();
    await page.goto(`${base}/landers/${name}`, { waitUntil: 'load' });
    const timing = await page.evaluate(() => {
      const [nav] = performance.getEntriesByType('navigation') as PerformanceNavigationTiming[];
      const resources = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
      const paint = performance.getEntriesByName('first-contentful-paint')[0];
      return {
        ttfb_ms: Math.round(nav?.responseStart ?? 0),
        fcp_ms: Math.round(paint?.startTime ?? 0),
        load_ms: Math.round(nav?.loadEventEnd ?? 0),
        kb: Math.round(
          ((nav?.transferSize ?? 0) + resources.reduce((sum, entry) => sum + entry.transferSize, 0)) / 1024,
        ),
        js_kb: Math.round(
          resources
            .filter((entry) => entry.name.endsWith('.js'))
            .reduce((sum, entry) => sum + entry.transferSize, 0) / 1024,
        ),
      };
    });
    rows.push({ lander: name, ...timing });
    await context.close();
  }
  console.table(rows);
} finally {
  await browser.close();
}
