#!/usr/bin/env node
// CI check of the dependencies: fails when
//  - a dependency in package.json is never used: no source file imports it (or names it in quotes, as
//    Vite and Playwright configs do), no npm script or CI step runs one of its binaries, no @types/x
//    has its package x, it is no required peer of another dependency, and no implicit use applies
//    (sass for .scss files, a `@vitest-environment` comment);
//  - package.json and package-lock.json disagree: the lock's root entry lists other dependencies or
//    ranges, a declared dependency has no locked package, or `npm ls --package-lock-only` finds a
//    locked version outside its range.
// Runs in about 5 s, without network.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const read = (file) => readFileSync(path.join(root, file), 'utf8');
const pkg = JSON.parse(read('package.json'));
const lock = JSON.parse(read('package-lock.json'));
const problems = [];

// ---- package.json and package-lock.json agree
const lockRoot = lock.packages?.[''] ?? {};
for (const field of ['dependencies', 'devDependencies', 'optionalDependencies', 'peerDependencies']) {
  const declared = pkg[field] ?? {};
  const locked = lockRoot[field] ?? {};
  for (const name of new Set([...Object.keys(declared), ...Object.keys(locked)])) {
    if (declared[name] !== locked[name]) {
      problems.push(
        `${field}.${name}: package.json has ${declared[name] ?? 'nothing'}, package-lock.json has ${locked[name] ?? 'nothing'} (run npm install)`,
      );
    }
  }
  for (const name of Object.keys(declared)) {
    if (!lock.packages?.[`node_modules/${name}`])
      problems.push(`${name}: declared in ${field} but not in package-lock.json`);
  }
}
try {
  execFileSync('npm', ['ls', '--all', '--package-lock-only'], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
} catch (error) {
  const output = `${error.stdout ?? ''}${error.stderr ?? ''}`
    .split('\n')
    .filter((line) => /invalid|missing|ERR!/.test(line) && !/nodedir/.test(line));
  problems.push(`npm ls --package-lock-only failed:\n    ${output.slice(0, 20).join('\n    ')}`);
}

// ---- every dependency is used
const skipDirs = new Set([
  'node_modules',
  'build',
  '.git',
  'test-results',
  'playwright-report',
  'data',
  '.react-router',
]);
const sourceExt = /\.(ts|tsx|mts|cts|js|mjs|cjs|jsx|scss|css|json|yaml|yml)$/;
function* walk(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (skipDirs.has(entry.name)) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(full);
    else if (
      sourceExt.test(entry.name) &&
      entry.name !== 'package-lock.json' &&
      entry.name !== 'package.json'
    )
      yield full;
  }
}
const sources = [...walk(root)].map((file) => readFileSync(file, 'utf8'));
const hasScss = [...walk(root)].some((file) => file.endsWith('.scss'));
const corpus = sources.join('\n');
const commands = [
  ...Object.values(pkg.scripts ?? {}),
  ...['.ci/run', 'Dockerfile'].filter((file) => existsSync(path.join(root, file))).map(read),
].join('\n');

const escapeRegExp = (text) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
const imported = (name) => new RegExp(`['"\`](~)?${escapeRegExp(name)}(/[^'"\`]*)?['"\`]`).test(corpus);
function binaries(name) {
  const file = path.join(root, 'node_modules', name, 'package.json');
  if (!existsSync(file)) return [];
  const { bin } = JSON.parse(readFileSync(file, 'utf8'));
  if (!bin) return [];
  return typeof bin === 'string' ? [name.split('/').pop()] : Object.keys(bin);
}
const runs = (name) =>
  binaries(name).some(
    (bin) =>
      new RegExp(`(^|[\\s;&|(/'"])${escapeRegExp(bin)}([\\s;&|)'"]|$)`, 'm').test(commands) ||
      corpus.includes(`.bin/${bin}`),
  );
/** Packages another declared package needs as a peer (e.g. @testing-library/dom for @testing-library/react). */
const peers = new Set(
  Object.keys({ ...pkg.dependencies, ...pkg.devDependencies }).flatMap((name) => {
    const file = path.join(root, 'node_modules', name, 'package.json');
    if (!existsSync(file)) return [];
    const manifest = JSON.parse(readFileSync(file, 'utf8'));
    const optional = manifest.peerDependenciesMeta ?? {};
    return Object.keys(manifest.peerDependencies ?? {}).filter((peer) => !optional[peer]?.optional);
  }),
);
const declared = { ...pkg.dependencies, ...pkg.devDependencies };
function used(name) {
  if (imported(name) || runs(name) || peers.has(name)) return true;
  if (new RegExp(`@vitest-environment\\s+${escapeRegExp(name)}\\b`).test(corpus)) return true;
  if (name === 'sass' || name === 'sass-embedded') return hasScss; // Vite compiles .scss with it
  if (name.startsWith('@types/')) {
    const typed = name.slice('@types/'.length);
    const target = typed.includes('__') ? `@${typed.replace('__', '/')}` : typed;
    return target === 'node' || target in declared || imported(target);
  }
  return false;
}
for (const name of Object.keys(declared)) {
  if (!used(name)) problems.push(`${name}: never imported or run (remove it, or use it)`);
}
for (const name of Object.keys(pkg.dependencies ?? {})) {
  if (name in (pkg.devDependencies ?? {})) problems.push(`${name}: in both dependencies and devDependencies`);
}

if (problems.length > 0) {
  console.error(`check-deps: ${problems.length} problem(s)\n  ${problems.join('\n  ')}`);
  process.exit(1);
}
console.log(
  `check-deps: ${Object.keys(declared).length} dependencies used, package.json and package-lock.json agree`,
);
