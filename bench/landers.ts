/**
 * Landers on a phone: Lighthouse (mobile preset: Moto G-class CPU ×4 slower, slow 4G simulated)
 * with Debian's Chromium on the nine landers and the home page of a running server, and a table of
 * the landers' budget: performance score, LCP ≤ 2.0 s, TBT ≤ 150 ms, CLS ≤ 0.05, JavaScript
 * ≤ 60 KB gzip (files and inline scripts), render-blocking CSS ≤ 15 KB gzip.
 * Usage: node --import tsx bench/landers.ts [baseUrl] [runs]   (default http://localhost:3000, 1 run;
 * with several runs the median by score is shown: TBT is noisy on a busy machine)
 * `runLighthouse(urls, options)` is the same measurement for the bench suite.
 */
import { execSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { landerNames } from '#contract/landers.ts';

export type LighthouseRow = {
  url: string;
  score: number;
  lcp_ms: number;
  tbt_ms: number;
  cls: number;
  js_kb_gzip: number;
  css_kb_gzip: number;
  blocking_css_kb_gzip: number;
};

export type LighthouseOptions = {
  /** Chromium's path; default: `which chromium`. */
  chromePath?: string;
  /** Cookies sent with every request, e.g. { skip_site_entry: '1' } to measure past the 18+ notice. */
  cookies?: Record<string, string>;
  /** Runs per URL; the median by performance score is reported (default 1). */
  runs?: number;
};

export const budget = { lcp_ms: 2000, tbt_ms: 150, cls: 0.05, js_kb_gzip: 60, blocking_css_kb_gzip: 15 };

type NetworkItem = { url: string; resourceType?: string; mimeType?: string };

const kb = (bytes: number) => Math.round((bytes / 1024) * 10) / 10;

/** The gzip size of what a URL answers (the bench measures the bytes, whatever the server sends). */
async function gzipBytes(url: string, cookie: string): Promise<{ size: number; body: string }> {
  const response = await fetch(url, { headers: cookie ? { cookie } : {} });
  const body = await response.text();
  return { size: gzipSync(body).length, body };
}

function inlineScripts(html: string): string {
  return [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/gi)]
    .map((match) => match[1])
    .join('\n');
}

/** Lighthouse's mobile run on each URL, with the JavaScript and CSS weighed as gzip. */
export async function runLighthouse(
  urls: string[],
  options: LighthouseOptions = {},
): Promise<LighthouseRow[]> {
  const chromePath = options.chromePath ?? execSync('which chromium', { encoding: 'utf8' }).trim();
  const cookie = Object.entries(options.cookies ?? {})
    .map(([name, value]) => `${name}=${value}`)
    .join('; ');
  const chrome = await chromeLauncher.launch({
    chromePath,
    chromeFlags: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  const rows: LighthouseRow[] = [];
  try {
    for (const url of urls) {
      const runs: LighthouseRow[] = [];
      for (let run = 0; run < (options.runs ?? 1); run++) {
        const result = await lighthouse(url, {
          port: chrome.port,
          output: 'json',
          logLevel: 'error',
          onlyCategories: ['performance'],
          ...(cookie ? { extraHeaders: { Cookie: cookie } } : {}),
        });
        if (!result) throw new Error(`Lighthouse gave no result for ${url}`);
        const { lhr } = result;
        const audit = (id: string) => lhr.audits[id]?.numericValue ?? 0;
        const details = lhr.audits['network-requests']?.details;
        const items: NetworkItem[] =
          details && details.type === 'table' ? (details.items as unknown as NetworkItem[]) : [];
        const blockingDetails = lhr.audits['render-blocking-resources']?.details;
        const blocking = new Set(
          blockingDetails && blockingDetails.type === 'opportunity'
            ? blockingDetails.items.map((item) => String(item.url))
            : [],
        );
        let js = 0;
        let css = 0;
        let blockingCss = 0;
        for (const item of items) {
          if (item.resourceType === 'Script') js += (await gzipBytes(item.url, cookie)).size;
          if (item.resourceType === 'Stylesheet') {
            const size = (await gzipBytes(item.url, cookie)).size;
            css += size;
            // Every stylesheet in the head blocks rendering; Lighthouse lists only the slow ones.
            if (blocking.has(item.url) || blocking.size === 0) blockingCss += size;
          }
        }
        const page = await gzipBytes(url, cookie);
        const inline = inlineScripts(page.body);
        if (inline) js += gzipSync(inline).length;
        runs.push({
          url: new URL(url).pathname,
          score: Math.round((lhr.categories.performance?.score ?? 0) * 100),
          lcp_ms: Math.round(audit('largest-contentful-paint')),
          tbt_ms: Math.round(audit('total-blocking-time')),
          cls: Math.round(audit('cumulative-layout-shift') * 1000) / 1000,
          js_kb_gzip: kb(js),
          css_kb_gzip: kb(css),
          blocking_css_kb_gzip: kb(blockingCss),
        });
      }
      runs.sort((a, b) => a.score - b.score);
      const median = runs[Math.floor(runs.length / 2)];
      if (median) rows.push(median);
    }
  } finally {
    chrome.kill();
  }
  return rows;
}

/** Whether a lander's row meets the budget (the home page is measured for comparison only). */
export function withinBudget(row: LighthouseRow): boolean {
  return (
    row.lcp_ms <= budget.lcp_ms &&
    row.tbt_ms <= budget.tbt_ms &&
    row.cls <= budget.cls &&
    row.js_kb_gzip <= budget.js_kb_gzip &&
    row.blocking_css_kb_gzip <= budget.blocking_css_kb_gzip
  );
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const base = process.argv[2] ?? 'http://localhost:3000';
  const urls = [...landerNames.map((name) => `${base}/landers/${name}`), `${base}/`];
  const runs = Number(process.argv[3] ?? 1) || 1;
  const rows = await runLighthouse(urls, { cookies: { skip_site_entry: '1' }, runs });
  console.table(
    rows.map((row) => ({ ...row, budget: row.url === '/' ? '' : withinBudget(row) ? 'ok' : 'OVER' })),
  );
}
