import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { test as base, expect } from '@playwright/test';
import { generate } from 'otplib';
import { seriousViolations } from './axe.ts';

/**
 * A real deployment's first start: a server of its own with SEED_DEMO=0 on a new data folder (an
 * empty database), only the admin from the environment. Liveness answers, readiness says setup is
 * required, the admin signs in, enrols TOTP, goes through the first-run wizard, and the new site is
 * served at once. The port comes after the shared servers' (`E2E_PORT` + `E2E_SERVERS`), so it never
 * meets theirs.
 */
const port = Number(process.env.E2E_PORT ?? 3210) + Number(process.env.E2E_SERVERS ?? 1);
const origin = `http://localhost:${port}`;
const email = 'owner@first-run.example';
const password = 'first-run-password-1';

const test = base.extend({
  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern; this one has none.
  baseURL: async ({}, use) => {
    await use(origin);
  },
});

let server: ChildProcess | undefined;
let dataDir = '';

test.beforeAll(async () => {
  // A first start migrates a new embedded database: on a loaded 2-core machine, up to a minute or two.
  test.setTimeout(180_000);
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'dating-first-run-'));
  // The bundle playwright.config.ts's servers were started from (scripts/start.mjs built it).
  server = spawn(process.execPath, ['build/app-server/main.mjs'], {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      SEED_DEMO: '0',
      ADMIN_EMAIL: email,
      ADMIN_PASSWORD: password,
      LOG_LEVEL: 'warn',
      DATABASE_URL: '',
      REDIS_URL: '',
      RATE_LIMIT_ALLOWLIST: '127.0.0.1,::1,::ffff:127.0.0.1',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  // Up once liveness answers; a start that fails ends the wait at once.
  const exited = once(server, 'exit').then(([code]) => {
    throw new Error(`the first-run server exited with ${String(code)}`);
  });
  const live = (async () => {
    for (;;) {
      // Refused while the server is not listening yet: asked again until it answers.
      const response = await fetch(`${origin}/api/health/live`).catch(() => null);
      if (response?.ok) return;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  })();
  await Promise.race([live, exited]);
  // Once live, a later exit is the afterAll's own stop, not a failure of the start.
  exited.catch(() => undefined);
});

test.afterAll(async () => {
  if (server && server.exitCode === null) {
    const exited = once(server, 'exit');
    server.kill('SIGTERM');
    await exited;
  }
  await rm(dataDir, { recursive: true, force: true });
});

test('a first start with SEED_DEMO=0: the admin sets up the first site in the back office and it is served at once', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  // Alive for the orchestrator; ready for traffic, saying why pages are not served yet.
  expect((await request.get('/api/health/live')).status()).toBe(200);
  const ready = await request.get('/api/health/ready');
  expect(ready.status()).toBe(200);
  expect(await ready.json()).toMatchObject({ ok: true, setup_required: true });
  expect((await request.get('/api/settings.php')).status()).toBe(503);
  await page.goto('/');
  await expect(page.getByText('This platform is not set up yet')).toBeVisible();

  // The admin from the environment signs in and enrols the second factor.
  await page.goto('/admin');
  await expect(page).toHaveURL(/\/admin\/login$/);
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
  await page.getByLabel('E-mail address').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page).toHaveURL(/\/admin\/enrol$/);
  await page.getByRole('button', { name: 'Start' }).click();
  const secret = (await page.getByTestId('totp-secret').textContent()) ?? '';
  await page.getByLabel('Authentication code').fill(await generate({ secret }));
  await page.getByRole('button', { name: 'Turn on two-factor sign-in' }).click();

  // The wizard: the company, then the site.
  await expect(page).toHaveURL(/\/admin\/setup$/);
  await expect(page.getByRole('heading', { name: 'Set up your first site' })).toBeVisible();
  await expect(page.getByText('Step 1 of 2')).toBeVisible();
  expect(await seriousViolations(page, 'setup company')).toEqual([]);
  await page.getByLabel('Company name').fill('First Light Media B.V.');
  await page.getByLabel('Address', { exact: true }).fill('Keizersgracht 1');
  await page.getByLabel('City').fill('Amsterdam');
  await page.getByLabel('Country', { exact: true }).fill('Netherlands');
  await page.getByLabel('Company registration number').fill('12345678');
  await page.getByRole('button', { name: 'Save company and continue' }).click();

  await expect(page.getByText('Step 2 of 2')).toBeVisible();
  expect(await seriousViolations(page, 'setup site')).toEqual([]);
  await page.getByLabel('Site name').fill('First Light');
  await page.getByLabel('Domain', { exact: true }).fill('localhost');
  await page.getByLabel('Language').selectOption('en');
  await page.getByLabel('Countries').fill('NL, BE');
  await page.getByLabel('Support e-mail address').fill('support@first-run.example');
  await page.getByRole('button', { name: 'Create site' }).click();
  await expect(page.getByText('First Light is live at localhost.')).toBeVisible();
  await page.screenshot({ path: 'docs/screens/admin-setup-done.png' });

  // Served at once: the API, readiness and the home page.
  const settings = await request.get('/api/settings.php');
  expect(settings.status()).toBe(200);
  expect(await settings.json()).toMatchObject({ name: 'First Light' });
  expect(await (await request.get('/api/health/ready')).json()).toMatchObject({ setup_required: false });
  await page.context().addCookies([{ name: 'skip_site_entry', value: '1', url: origin }]);
  await page.goto('/');
  await expect(page).toHaveTitle(/First Light/);
});
