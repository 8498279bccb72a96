// The server as one ES module (build/app-server/main.mjs), so a start loads one file instead of
// compiling some 200 TypeScript sources through tsx's loader (docs/decisions/020). Packages stay
// external: node_modules are loaded as they are (native modules, their own files).
import { build } from 'esbuild';

const started = performance.now();
await build({
  entryPoints: ['server/main.ts'],
  outfile: 'build/app-server/main.mjs',
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
console.log(`build-server: build/app-server/main.mjs in ${Math.round(performance.now() - started)} ms`);
