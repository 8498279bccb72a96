// `npm start`: builds the pages and the server once when there is no build, then serves in
// production mode from the bundled server (a quick start, docs/decisions/020 and 025).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const pages = path.join(root, 'build/server/index.js');
const bundle = path.join(root, 'build/app-server/main.mjs');

function run(args) {
  const result = spawnSync('npm', args, { stdio: 'inherit', cwd: root });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

/** The newest change under the server's own sources (a bundle older than it is stale). */
function newestSource(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(full));
    else if (/\.tsx?$/.test(entry.name)) newest = Math.max(newest, statSync(full).mtimeMs);
  }
  return newest;
}

/** The build is missing, or older than the server's sources. */
function stale() {
  return (
    !existsSync(bundle) ||
    Math.max(newestSource(path.join(root, 'server')), newestSource(path.join(root, 'contract'))) >
      statSync(bundle).mtimeMs
  );
}

if (process.argv.includes('--wait-for-build')) {
  // A second server of the same checkout (the browser tests run two): the first one builds, this
  // one waits for that build rather than writing the same files at the same time.
  const deadline = Date.now() + 10 * 60_000;
  while (!existsSync(pages) || stale()) {
    if (Date.now() > deadline) {
      console.error('No current build appeared within 10 minutes: run `npm run build`.');
      process.exit(1);
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
} else if (!existsSync(pages)) {
  console.log('No build found: building the web app first (once)...');
  run(['run', 'build']);
} else if (stale()) {
  // The server's sources changed since the last build: bundle them again (well under a second).
  const result = spawnSync(process.execPath, [path.join(root, 'scripts/build-server.mjs')], {
    stdio: 'inherit',
    cwd: root,
  });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
process.env.NODE_ENV ??= 'production';
await import(bundle);
