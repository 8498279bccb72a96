#!/usr/bin/env node
// npm run screens (SCREENS=chat,credits for some): screenshots of the main screens at phone (390×844) and desktop (1366×900) size
// into docs/screens/, with Debian Chromium. Builds nothing: it starts the built server (npm run build
// first) on a fresh temporary data folder, signs up and activates a member (the activation link comes
// from the server's outbox folder), gives them a photo-less but lived-in account (likes, a chat), and
// photographs home (as a visitor), search, a profile, likes, swipe, the swipe lander (as a visitor),
// the match moment (a like back in the swipe game), chats, a chat, credits, premium; and, as a second
// member with photos, their own profile, account settings and notifications.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from '@playwright/test';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const outDir = path.join(root, 'docs', 'screens');
const port = Number(process.env.SCREENS_PORT ?? 3399);
const base = `http://127.0.0.1:${port}`;
const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const sizes = [
  { name: 'phone', width: 390, height: 844, mobile: true },
  { name: 'desktop', width: 1366, height: 900, mobile: false },
];

if (!existsSync(path.join(root, 'build', 'server', 'index.js'))) {
  console.error('No build: run "npm run build" first.');
  process.exit(1);
}

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'screens-'));
// The embedded database and no Redis: a throwaway instance, whatever the shell has set.
const { DATABASE_URL: _database, REDIS_URL: _redis, ...inherited } = process.env;
const server = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
  cwd: root,
  env: {
    ...inherited,
    NODE_ENV: 'production',
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    DEMO_PROFILES: process.env.DEMO_PROFILES ?? '80',
    LOG_LEVEL: 'warn',
    RATE_LIMIT_ALLOWLIST: '127.0.0.1,::1,::ffff:127.0.0.1',
  },
  stdio: ['ignore', 'inherit', 'inherit'],
});

async function waitForServer() {
  for (let i = 0; i < 180; i++) {
    const ok = await fetch(`${base}/api/health`)
      .then((answer) => answer.ok)
      .catch(() => {
        // expected: the server is still starting; after the last try the error below says so.
        return false;
      });
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error('the server did not start');
}

async function activationLink(email) {
  const dir = path.join(dataDir, 'outbox');
  for (let i = 0; i < 60; i++) {
    for (const file of existsSync(dir) ? readdirSync(dir) : []) {
      if (!file.endsWith('.json')) continue;
      let mail;
      try {
        mail = JSON.parse(readFileSync(path.join(dir, file), 'utf8'));
      } catch {
        // expected: the mail file is still being written; the next round reads it.
        continue;
      }
      const match = mail.to === email && mail.text.match(/https?:\/\/\S*\/api\/activate\.php\S*/);
      if (match) return new URL(match[0]);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error('no activation mail');
}

async function settle(page) {
  // A page that never hydrates or settles is still shot, with a warning naming it. A lander is
  // plain HTML with an inline script: it never hydrates.
  if (!new URL(page.url()).pathname.startsWith('/landers/'))
    await page
      .locator('html[data-hydrated="true"]')
      .waitFor({ timeout: 15_000 })
      .catch((error) => console.warn(`screens: ${page.url()} did not hydrate: ${error.message}`));
  await page
    .waitForLoadState('networkidle', { timeout: 5_000 })
    .catch((error) => console.warn(`screens: ${page.url()} did not settle: ${error.message}`));
  // Images that load lazily below the fold do not matter; let the ones in view finish.
  await page.waitForTimeout(400);
}

/** Passes cards in the swipe game until the one who liked the member is on top, then likes it. */
async function matchMoment(page) {
  // The other size's shot made the match already: taken back, the card comes up again.
  if (liker) {
    await page.request.delete('/api/like.php', { data: { profile: liker.id } });
    await page.reload();
    await settle(page);
  }
  const card = page.getByTestId('swipe-card');
  for (let i = 0; i < 30; i++) {
    const heading = (await card.getByRole('heading').textContent()) ?? '';
    const theOne = liker && heading.startsWith(`${liker.name},`);
    await page.getByRole('button', { name: theOne ? 'Like' : 'Pass', exact: true }).click();
    if (theOne) {
      await page.getByTestId('match-modal').waitFor();
      // The modal's fade and the photos.
      await page.waitForTimeout(600);
      return;
    }
    await page.waitForFunction((before) => {
      const now = document.querySelector('[data-testid="swipe-card"] h2')?.textContent ?? '';
      return now !== before;
    }, heading);
  }
  console.warn('screens: no match came up in the swipe game');
}

let liker;
let browser;
try {
  await waitForServer();
  browser = await chromium.launch({
    executablePath: chromiumPath,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  });
  const setup = await browser.newContext({ baseURL: base });
  const api = setup.request;
  const email = `screens-${Date.now()}@example.com`;
  const signup = await api.post('/api/signup.php', {
    data: {
      email,
      name: 'Robin',
      password: randomBytes(18).toString('base64url'),
      date_of_birth: '1992-04-12',
    },
  });
  if (!signup.ok()) throw new Error(`signup: ${signup.status()} ${await signup.text()}`);
  const link = await activationLink(email);
  await api
    .get(link.pathname + link.search, { maxRedirects: 0 })
    .catch((error) => console.warn(`screens: activating the member failed: ${error.message}`));
  const found = await (await api.get('/api/search.php')).json();
  const profiles = found.profiles ?? [];
  for (const profile of profiles.slice(0, 3))
    await api.post('/api/like.php', { data: { profile: profile.id } });
  const partner = profiles[0];
  if (partner) {
    await api.post('/api/chat.php', {
      data: { profile: partner.id, text: 'Hi! Your profile made me smile. How is your week going?' },
    });
  }
  const chats = await (await api.get('/api/chats.php')).json().catch((error) => {
    console.warn(`screens: the chats list did not load, the chat screens show none: ${error.message}`);
    return {};
  });
  const conversation = chats.chats?.[0]?.conversation?.id;
  // A fictional profile that likes the member (the demo's auto-like): liked back in the swipe game,
  // it is the match moment.
  liker = (await (await api.get('/api/auto-like.php')).json()).profile;
  const state = await setup.storageState();

  // A second member who built a profile: three photos (demo portraits), an about text and details,
  // for the own-profile and settings screens.
  const owner = await browser.newContext({ baseURL: base });
  const ownerEmail = `screens-owner-${Date.now()}@example.com`;
  const ownerSignup = await owner.request.post('/api/signup.php', {
    data: {
      email: ownerEmail,
      name: 'Sam',
      password: randomBytes(18).toString('base64url'),
      date_of_birth: '1990-09-03',
    },
  });
  if (!ownerSignup.ok()) throw new Error(`signup: ${ownerSignup.status()} ${await ownerSignup.text()}`);
  const ownerLink = await activationLink(ownerEmail);
  await owner.request
    .get(ownerLink.pathname + ownerLink.search, { maxRedirects: 0 })
    .catch((error) => console.warn(`screens: activating the owner failed: ${error.message}`));
  await owner.request.put('/api/profile.php', {
    data: {
      gender: 'female',
      seeking: 'male',
      hair: 'brown',
      body_type: 'slim',
      interests: ['travelling', 'music', 'wine'],
      about: 'Coffee first, then adventures. Weekend hiker, amateur cook and always up for live music.',
    },
  });
  // The demo's portraits are drawn after the server starts: wait for three.
  let portraits = [];
  for (let i = 0; i < 120 && portraits.length < 3; i++) {
    const women = await (await owner.request.get('/api/search.php?gender=female&country=any')).json();
    portraits = (women.profiles ?? []).filter((profile) => profile.main_image);
    if (portraits.length < 3) await new Promise((resolve) => setTimeout(resolve, 500));
  }
  for (const profile of portraits.slice(0, 3)) {
    const image = await owner.request.get(profile.main_image.filename);
    if (!image.ok()) continue;
    await owner.request.post('/api/photos.php', {
      multipart: { file: { name: 'me.webp', mimeType: 'image/webp', buffer: await image.body() } },
    });
  }
  const ownerState = await owner.storageState();
  await owner.close();

  const shots = [
    { name: 'home', path: '/', visitor: true },
    { name: 'search', path: '/members' },
    { name: 'profile', path: partner ? `/members/${partner.id}` : '/members' },
    { name: 'my-profile', path: '/profile', owner: true },
    { name: 'account-settings', path: '/profile/account', owner: true },
    { name: 'notifications', path: '/notifications', owner: true },
    { name: 'likes', path: '/likes' },
    { name: 'swipe', path: '/swipe-game' },
    { name: 'lander-swipe', path: '/landers/tinderswipe', visitor: true },
    { name: 'match', path: '/swipe-game', act: matchMoment },
    { name: 'chats', path: '/chats' },
    { name: 'chat', path: conversation ? `/chats/${conversation}` : '/chats' },
    { name: 'credits', path: '/credits' },
    { name: 'premium', path: '/premium' },
  ];
  // SCREENS=chat,chats,profile shoots only those (default: all).
  const only = process.env.SCREENS ? new Set(process.env.SCREENS.split(',')) : null;
  for (const size of sizes) {
    for (const shot of shots.filter((candidate) => !only || only.has(candidate.name))) {
      const context = await browser.newContext({
        baseURL: base,
        viewport: { width: size.width, height: size.height },
        deviceScaleFactor: 1,
        isMobile: size.mobile,
        hasTouch: size.mobile,
        storageState: shot.visitor ? undefined : shot.owner ? ownerState : state,
      });
      await context.addCookies([{ name: 'skip_site_entry', value: '1', url: base }]);
      const page = await context.newPage();
      await page.goto(shot.path);
      await settle(page);
      if (shot.act) await shot.act(page);
      const file = path.join(outDir, `${shot.name}-${size.name}.png`);
      await page.screenshot({ path: file });
      console.log(`${path.relative(root, file)}  ${shot.path}`);
      await context.close();
    }
  }
  await setup.close();
} finally {
  await browser?.close();
  server.kill('SIGTERM');
  await new Promise((resolve) => server.once('exit', resolve));
  rmSync(dataDir, { recursive: true, force: true });
}
