import { execSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
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

const port = Number(process.env.E2E_PORT ?? 3210);
// Set once in the runner and inherited by the workers, so the tests can read the server's outbox.
process.env.E2E_DATA_DIR ??= mkdtempSync(path.join(os.tmpdir(), 'dating-e2e-'));
const dataDir = process.env.E2E_DATA_DIR;

export default defineConfig({
  testDir: 'tests/e2e',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [['list']],
  timeout: 60_000,
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
        '--disable-dev-shm-usage',
      ],
    },
  },
  projects: [{ name: 'desktop', use: { ...devices['Desktop Chrome'], channel: undefined } }],
  webServer: {
    // What `npm start` runs: the bundled server (rebundled when a source is newer) and the page build.
    command: 'node scripts/start.mjs',
    url: `http://localhost:${port}/api/health`,
    timeout: 120_000,
    reuseExistingServer: false,
    env: {
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DEMO_PROFILES: '80',
      LOG_LEVEL: 'warn',
      // Every journey signs up from 127.0.0.1; the per-address limits have their own tests.
      RATE_LIMIT_ALLOWLIST: '127.0.0.1,::1,::ffff:127.0.0.1',
    },
  },
});
