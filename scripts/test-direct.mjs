#!/usr/bin/env node
// The tests whose behaviour depends on the kind of connection, run straight to PostgreSQL.
// CI runs the whole suite through PgBouncer in transaction mode (DATABASE_POOLER=transaction) and
// only these directly: a file that names the pooler switch, looks at a backend's own state
// (prepared statements, its pid) or migrates, where a direct connection takes another path
// (statements prepared once per connection, decision 027). Every other file sends the same
// statements either way. DATABASE_URL must point at PostgreSQL itself.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

const roots = ['server', 'tests/abuse', 'tests/perf'];
const dependsOnConnection = /DATABASE_POOLER|pg_prepared_statements|pg_backend_pid|\.migrate\(\)/;

function testFiles(dir) {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) return name === 'node_modules' ? [] : testFiles(file);
    return /\.test\.tsx?$/.test(name) ? [file] : [];
  });
}

if (!process.env.DATABASE_URL) {
  console.error('DATABASE_URL (a direct PostgreSQL connection) is needed.');
  process.exit(1);
}
const files = roots.flatMap(testFiles).filter((file) => dependsOnConnection.test(readFileSync(file, 'utf8')));
if (files.length === 0) {
  console.error('No test depends on the kind of connection: the selection is wrong.');
  process.exit(1);
}
console.log(`${files.length} test files depend on the kind of connection:\n  ${files.join('\n  ')}`);
const env = { ...process.env };
delete env.DATABASE_POOLER;
delete env.DATABASE_DIRECT_URL;
const run = spawnSync('npx', ['vitest', 'run', ...process.argv.slice(2), ...files], {
  stdio: 'inherit',
  env,
});
process.exit(run.status ?? 1);
