// The server bundled (build/app-server/main.mjs and its chunks), so a start loads our code without
// compiling some 200 TypeScript sources through tsx's loader (docs/decisions/020). Packages stay
// external: node_modules are loaded as they are (native modules, their own files).
import { rmSync } from 'node:fs';
import { build } from 'esbuild';

const started = performance.now();
// Chunks are named by their content: an earlier build's would stay beside the new ones.
rmSync('build/app-server', { recursive: true, force: true });
await build({
  // The embedded database's thread (server/db/pglite-thread.ts) and the photo screening's thread
  // (server/modules/photos/screener.ts) have entries of their own; the app
  // loads as a chunk the entry imports once it has started that thread (decision 025).
  entryPoints: [
    'server/main.ts',
    'server/db/pglite-thread.worker.ts',
    'server/modules/photos/screener.worker.ts',
  ],
  outdir: 'build/app-server',
  entryNames: '[name]',
  chunkNames: 'chunk-[hash]',
  outExtension: { '.js': '.mjs' },
  splitting: true,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20.19',
  packages: 'external',
  sourcemap: 'linked',
  logLevel: 'warning',
  // The bundle sits two folders deep like server/lib/project-root.ts, which derives the project's
  // folder from its own address; a bundle anywhere else would read files from the wrong place.
});
console.log(`build-server: build/app-server/ in ${Math.round(performance.now() - started)} ms`);
