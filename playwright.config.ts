import { execSync } from 'node:child_process';
import { mkdtempSync, statfsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defineConfig, devices } from '@playwright/test';

/** Debian's Chromium; Playwright never downloads a browser here. */
function chromiumPath(): string {
  if (process.env.CHROMIUM_PATH) return process.env.CHROMIUM_PATH;
  try {
    return (
      execSync('which chromium || which chromium-browser', { encoding: 'utf8' }).trim().split('\n')[0] ?? ''
    );
  } catch {
    throw new Error(
      'Chromium not found: install it with "apt-get install -y chromium" or set CHROMIUM_PATH.',
    );
  }
}

/**
 * Chromium keeps its shared memory in /dev/shm, which containers often make 64 MB: there it needs
 * --disable-dev-shm-usage (shared memory as files in /tmp), which on a machine with a large
 * /dev/shm only costs — /tmp here is on disk, and the browser spent its CPU writing there.
 */
function smallDevShm(): boolean {
  try {
    const { bsize, blocks } = statfsSync('/dev/shm');
    return bsize * blocks < 1024 ** 3;
  } catch {
    // expected: no /dev/shm (not Linux), so nothing to work around.
    return false;
  }
}

/**
 * The journeys run on `E2E_SERVERS` servers at once (two in CI, one by default), each with its own
 * port (`E2E_PORT` + n) and data folder, and one worker per server: a worker only ever talks to its
 * own server (tests/e2e/fixtures.ts), so no spec sees another's site settings, staff or outbox.
 */
const port = Number(process.env.E2E_PORT ?? 3210);
const servers = Number(process.env.E2E_SERVERS ?? (process.env.CI ? 2 : 1));
// Set once in the runner and inherited by the workers, so the tests can read their server's outbox.
process.env.E2E_DATA_DIR ??= mkdtempSync(path.join(os.tmpdir(), 'dating-e2e-'));
process.env.E2E_PORT = String(port);
process.env.E2E_SERVERS = String(servers);
const dataDir = process.env.E2E_DATA_DIR;

export default defineConfig({
  testDir: 'tests/e2e',
  fullyParallel: false,
  workers: servers,
  retries: 0,
  reporter: [['list']],
  timeout: 60_000,
  // Two servers and Chromium share two cores: on a slow day hydration and live updates have taken
  // longer than Playwright's default five seconds.
  expect: { timeout: 10_000 },
  use: {
    baseURL: `http://localhost:${port}`,
    trace: 'off',
    launchOptions: {
      executablePath: chromiumPath(),
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        ...(smallDevShm() ? ['--disable-dev-shm-usage'] : []),
      ],
    },
  },
  projects: [{ name: 'desktop', use: { ...devices['Desktop Chrome'], channel: undefined } }],
  webServer: Array.from({ length: servers }, (_, index) => ({
    // What `npm start` runs: the bundled server (rebundled when a source is newer) and the page
    // build; the servers after the first wait for that build instead of making it again.
    command: index === 0 ? 'node scripts/start.mjs' : 'node scripts/start.mjs --wait-for-build',
    url: `http://localhost:${port + index}/api/health`,
    timeout: 120_000,
    reuseExistingServer: false,
    env: {
      NODE_ENV: 'production',
      PORT: String(port + index),
      HOST: '127.0.0.1',
      DATA_DIR: path.join(dataDir, `server-${index}`),
      DEMO_PROFILES: '80',
      LOG_LEVEL: 'warn',
      // Every journey signs up from 127.0.0.1; the per-address limits have their own tests.
      RATE_LIMIT_ALLOWLIST: '127.0.0.1,::1,::ffff:127.0.0.1',
    },
  })),
});
