#!/usr/bin/env node
// The tests whose behaviour depends on the kind of database, run on the embedded one (PGlite).
// CI runs the whole suite on PostgreSQL + Redis and only these on PGlite: the database layer's own
// tests (server/db), a test file whose code names the embedded database (createPglite, wrapPglite,
// 'pglite'), and one that checks something else on it and says so with the line
// "Checked on PGlite in CI too". A file that only adds PostgreSQL-only cases (two instances on one
// database, `if (process.env.DATABASE_URL)`) is not one of them: without them it runs the same SQL
// on the same engine either way (PGlite is PostgreSQL). `npm test` still runs everything on PGlite.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

const roots = ['server', 'contract', 'locales', 'app', 'tests/abuse', 'tests/perf'];
const dependsOnKind = /createPglite|wrapPglite|'pglite'|Checked on PGlite in CI too/;

function testFiles(dir) {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) return name === 'node_modules' ? [] : testFiles(file);
    return /\.test\.tsx?$/.test(name) ? [file] : [];
  });
}

const files = roots
  .flatMap(testFiles)
  .filter(
    (file) =>
      file.startsWith(`server${path.sep}db${path.sep}`) || dependsOnKind.test(readFileSync(file, 'utf8')),
  );
if (files.length === 0) {
  console.error('No test depends on the kind of database: the selection is wrong.');
  process.exit(1);
}
console.log(`${files.length} test files depend on the kind of database:\n  ${files.join('\n  ')}`);
const env = { ...process.env };
delete env.DATABASE_URL;
delete env.REDIS_URL;
const run = spawnSync('npx', ['vitest', 'run', ...process.argv.slice(2), ...files], {
  stdio: 'inherit',
  env,
});
process.exit(run.status ?? 1);
