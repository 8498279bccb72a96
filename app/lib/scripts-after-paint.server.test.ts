import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { describe, expect, it } from 'vitest';
import { inertModuleType } from './after-paint.ts';
import { scriptsAfterPaint } from './scripts-after-paint.server.ts';

const shell =
  '<!DOCTYPE html><html lang="en"><head><meta charSet="utf-8"/>' +
  '<link rel="stylesheet" href="/assets/public.css" data-precedence="shell"/>' +
  '<link rel="preload" as="fetch" crossorigin="anonymous" href="/i18n/en.json" data-catalogs=""/>' +
  '<link rel="modulepreload" href="/assets/entry.client.js" nonce="abc"/>' +
  '<link rel="modulepreload" href="/assets/root.js" nonce="abc"/>' +
  '<script nonce="abc">globalThis.__zod_globalConfig={jitless:true};</script></head>' +
  '<body><main>Hello</main><script nonce="abc">window.__reactRouterContext = {};</script>' +
  '<script nonce="abc" type="module" async="">import * as route0 from "/assets/root.js";</script>';
const streamed =
  '<script nonce="abc">window.__reactRouterContext.streamController.enqueue("[]");</script>' +
  '<link rel="modulepreload" href="/assets/later.js"/></body></html>';

const expected =
  '<!DOCTYPE html><html lang="en"><head><meta charSet="utf-8"/>' +
  '<link rel="stylesheet" href="/assets/public.css" data-precedence="shell"/>' +
  '<link rel="preload" as="fetch" crossorigin="anonymous" href="/i18n/en.json" data-catalogs=""/>' +
  '<script nonce="abc">globalThis.__zod_globalConfig={jitless:true};</script></head>' +
  '<body><main>Hello</main><script nonce="abc">window.__reactRouterContext = {};</script>' +
  `<script nonce="abc" type="${inertModuleType}" data-preloads="/assets/entry.client.js /assets/root.js">` +
  'import * as route0 from "/assets/root.js";</script>' +
  streamed;

async function rewrite(chunks: string[]): Promise<string> {
  return text(Readable.from(chunks.map((chunk) => Buffer.from(chunk))).pipe(scriptsAfterPaint()));
}

describe('scripts after the first paint', () => {
  it('takes the modulepreload links out and makes the module script inert, listing them', async () => {
    expect(await rewrite([shell, streamed])).toBe(expected);
  });

  it('gives the same page wherever the stream cuts the shell (inside a link or the script tag)', async () => {
    const page = shell + streamed;
    for (let cut = 1; cut < shell.length + 20; cut++) {
      expect(await rewrite([page.slice(0, cut), page.slice(cut)]), `cut at ${cut}`).toBe(expected);
    }
    // One character at a time.
    expect(await rewrite([...page])).toBe(expected);
  });

  it('leaves a page without a module script as it was (a scriptless page)', async () => {
    const page =
      '<html><head><link rel="stylesheet" href="/a.css"/></head><body><p>Terms &lt;here&gt;</p></body></html>';
    expect(await rewrite([page.slice(0, 30), page.slice(30)])).toBe(page);
  });

  it('keeps multi-byte characters cut between chunks intact', async () => {
    const page = `<html><body><p>Ça va — żółć 😀</p>${shell.slice(shell.indexOf('<script nonce="abc">window'))}</body></html>`;
    const bytes = Buffer.from(page);
    const chunks = [bytes.subarray(0, 21), bytes.subarray(21, 40), bytes.subarray(40)];
    const output = await text(Readable.from(chunks).pipe(scriptsAfterPaint()));
    expect(output).toContain('Ça va — żółć 😀');
    expect(output).toContain(`type="${inertModuleType}"`);
  });
});
