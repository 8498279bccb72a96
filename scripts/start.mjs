// `npm start`: builds the pages once when no build exists, then serves in production mode.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

if (!existsSync(new URL('../build/server/index.js', import.meta.url))) {
  console.log('No build found: building the web app first (once)...');
  const result = spawnSync('npm', ['run', 'build'], { stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
process.env.NODE_ENV ??= 'production';
const { register } = await import('tsx/esm/api');
register();
await import('../server/main.ts');
