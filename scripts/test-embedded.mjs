#!/usr/bin/env node
// The tests whose behaviour depends on the kind of database, run on the embedded one (PGlite).
// CI runs the whole suite on PostgreSQL + Redis and only these on PGlite: a test file that names
// the embedded database, its snapshot, or branches on DATABASE_URL is one of them; every other file
// runs the same SQL on the same engine either way (PGlite is PostgreSQL). `npm test` still runs
// everything on PGlite.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

const roots = ['server', 'contract', 'locales', 'app', 'tests/abuse', 'tests/perf'];
const dependsOnKind = /DATABASE_URL|databaseUrl|pglite|PGlite|embedded|snapshot/;

function testFiles(dir) {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) return name === 'node_modules' ? [] : testFiles(file);
    return /\.test\.tsx?$/.test(name) ? [file] : [];
  });
}

const files = roots.flatMap(testFiles).filter((file) => dependsOnKind.test(readFileSync(file, 'utf8')));
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
