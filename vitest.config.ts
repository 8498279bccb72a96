import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { defineConfig } from 'vitest/config';

const include = [
  'server/**/*.test.ts',
  'tests/abuse/**/*.test.ts',
  'contract/**/*.test.ts',
  'locales/**/*.test.ts',
  'app/**/*.test.{ts,tsx}',
  'tests/perf/**/*.test.ts',
];
const roots = ['server', 'tests/abuse', 'contract', 'locales', 'app', 'tests/perf'];

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : testFiles(file);
    return /\.test\.tsx?$/.test(entry.name) ? [file] : [];
  });
}

/**
 * The files that replace a module (`vi.mock`): they run with a module graph of their own. Every
 * other file shares its worker's graph with the files before it (`isolate: false`): importing the
 * app again for each of ~170 files was ~140 s of the suite's 270 s on two workers (decision 066).
 */
const replacesModules = roots
  .flatMap(testFiles)
  .filter((file) => /\bvi\.mock\(/.test(readFileSync(file, 'utf8')))
  .map((file) => file.split(path.sep).join('/'));

export default defineConfig({
  test: {
    globalSetup: ['tests/setup/global-setup.ts'],
    setupFiles: ['tests/setup/fail-on-console-error.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    maxWorkers: 2,
    projects: [
      { extends: true, test: { name: 'shared', include, exclude: replacesModules, isolate: false } },
      { extends: true, test: { name: 'own-modules', include: replacesModules } },
    ],
  },
});
