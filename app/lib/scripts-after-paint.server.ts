import { Transform } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { inertModuleType } from './after-paint.ts';

/**
 * The page's scripts load once it has painted (docs/decisions/026).
 *
 * React Router's `<Scripts>` writes a `modulepreload` link for each of the page's ~45 modules and a
 * module script that imports them. The browser asks for all of them as soon as it reads the head, at
 * a high priority, so on a slow connection the ~170 KB of script shares the line with the ~25 KB of
 * stylesheet that the first paint waits for. This rewrite of the server's markup takes the links
 * out and makes the module script inert (`type="text/x-module-after-paint"`, its preloads listed in
 * `data-preloads`); `afterPaintLoaderScript` (after-paint.ts, an inline script in `<head>`) puts
 * both back once the first frame is on screen. The page shows at once; React hydrates it a frame
 * later than it would have on a fast line, and on a slow one no later, since the scripts then
 * waited for the stylesheet.
 */

const modulePreload = /<link rel="modulepreload"[^>]*?>/g;
const hrefOf = /\shref="([^"]+)"/;
const moduleScript = /<script([^>]*?) type="module" async="">/;

/**
 * Rewrites the shell of a streamed page: the first module script and the modulepreload links before
 * it. Everything after that script passes through untouched (React's streamed data scripts).
 */
export function scriptsAfterPaint(): Transform {
  let pending = '';
  let preloads: string[] = [];
  let done = false;
  // A character cut between two chunks is decoded once its last byte has come.
  const decoder = new StringDecoder('utf8');
  return new Transform({
    transform(chunk: Buffer | string, _encoding, callback) {
      const decoded = typeof chunk === 'string' ? chunk : decoder.write(chunk);
      if (done) {
        callback(null, decoded);
        return;
      }
      pending += decoded;
      const script = moduleScript.exec(pending);
      if (script) {
        done = true;
        const before = takePreloads(pending.slice(0, script.index), preloads);
        const inert = `<script${script[1]} type="${inertModuleType}" data-preloads="${before.preloads.join(' ')}">`;
        const after = pending.slice(script.index + script[0].length);
        pending = '';
        callback(null, before.html + inert + after);
        return;
      }
      const rewritten = takePreloads(pending, preloads);
      preloads = rewritten.preloads;
      // A tag cut by the chunk's end waits for the rest.
      const open = rewritten.html.lastIndexOf('<');
      const cut = open >= 0 && rewritten.html.indexOf('>', open) < 0 ? open : rewritten.html.length;
      pending = rewritten.html.slice(cut);
      callback(null, rewritten.html.slice(0, cut));
    },
    flush(callback) {
      callback(null, pending + decoder.end());
    },
  });
}

function takePreloads(html: string, preloads: string[]): { html: string; preloads: string[] } {
  const found = [...preloads];
  const rest = html.replace(modulePreload, (link) => {
    const href = hrefOf.exec(link)?.[1];
    if (!href) return link;
    found.push(href);
    return '';
  });
  return { html: rest, preloads: found };
}
