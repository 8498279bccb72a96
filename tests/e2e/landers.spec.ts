import type { Page } from '@playwright/test';
import sharp from 'sharp';
import { pageAxe } from './axe.ts';
import {
  activeMember,
  e2eEmail,
  expect,
  gotoHydrated,
  scrollWidth,
  tapUntil,
  test,
  touchDrag,
  touchPhone,
} from './fixtures.ts';

const landers = [
  'tinderswipe',
  'alonetonight',
  'collagelanding',
  'gallery',
  'iconslanding',
  'maplanding',
  'socialnetwork',
  'transitionsvideolanding',
  'video',
] as const;

const phone = { width: 390, height: 844 };

async function seriousViolations(page: Page) {
  const { violations } = await pageAxe(page).analyze();
  return violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
    );
}

/** The video landers link their video once the server has made it (in the background, at start). */
async function gotoWithVideo(page: Page, url: string) {
  await expect(async () => {
    await page.goto(url);
    await expect(page.getByTestId('lander-video')).toHaveCount(1, { timeout: 1000 });
  }).toPass({ timeout: 60_000 });
}

/** Each lander shows its own kind of content. */
const ownContent: Record<(typeof landers)[number], (page: Page) => Promise<void>> = {
  async tinderswipe(page) {
    const cards = page.getByTestId('swipe-card');
    expect(await cards.count()).toBeGreaterThanOrEqual(3);
    const count = await cards.count();
    const top = page.locator(`[data-label="${await cards.last().getAttribute('data-label')}"]`);
    const box = await top.boundingBox();
    if (!box) throw new Error('no card');
    // A swipe to the left with the finger (pointer events): the card flies off as a pass and goes.
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2 - 80, box.y + box.height / 2, { steps: 5 });
    await page.mouse.move(box.x - 60, box.y + box.height / 2, { steps: 5 });
    await page.mouse.up();
    await expect(top).toHaveCount(0);
    await expect(cards).toHaveCount(count - 1);
    // No signup yet after one pass; the first like opens it.
    await expect(page.locator('#signup')).toBeHidden();
    await page.getByRole('link', { name: 'Like' }).click();
    await expect(cards).toHaveCount(count - 2);
    await expect(page.locator('#signup')).toBeVisible();
    await expect(page.locator('#signup h2')).toContainText('could be your match');
  },
  async alonetonight(page) {
    await expect(page.getByText(/singles online near you/)).toBeVisible();
    expect(await page.getByTestId('online-profile').count()).toBeGreaterThanOrEqual(3);
    await expect(page.getByText('Online now').first()).toBeVisible();
  },
  async collagelanding(page) {
    expect(await page.getByTestId('collage').locator('img').count()).toBeGreaterThanOrEqual(6);
  },
  async gallery(page) {
    const card = page.getByTestId('gallery-card').first();
    const name = (await card.locator('.gl-name').textContent()) ?? '';
    await card.click();
    const preview = page.getByTestId('gallery-preview').filter({ has: page.getByRole('heading', { name }) });
    await expect(preview).toBeVisible();
    await preview.getByRole('link', { name: /Say hello to/ }).click();
    await expect(page.locator('#signup')).toBeInViewport();
  },
  async iconslanding(page) {
    await expect(page.getByTestId('benefits').locator('li svg')).toHaveCount(6);
  },
  async maplanding(page) {
    const regions = page.getByTestId('region-map').locator('[data-region]');
    expect(await regions.count()).toBeGreaterThanOrEqual(5);
    // The heading names the region whose singles are listed.
    const focus = page.getByTestId('map-regions').locator('li.is-focus span').first();
    const region = (await focus.textContent()) ?? '';
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Singles in ${region}`);
    const listed = page.getByTestId('region-profile');
    expect(await listed.count()).toBeGreaterThan(0);
    const codes = new Set(
      await listed.evaluateAll((items) => items.map((item) => item.getAttribute('data-region'))),
    );
    expect(codes.size).toBe(1);
  },
  async socialnetwork(page) {
    expect(await page.getByTestId('feed-post').count()).toBeGreaterThanOrEqual(3);
  },
  async transitionsvideolanding(page) {
    await expectVideoPlays(page);
  },
  async video(page) {
    await expectVideoPlays(page);
  },
};

async function expectVideoPlays(page: Page) {
  const video = page.getByTestId('lander-video');
  await expect(video).toHaveAttribute('poster', /\.jpg$/);
  expect(await video.evaluate((element: HTMLVideoElement) => element.muted && element.loop)).toBe(true);
  await expect
    .poll(() => video.evaluate((element: HTMLVideoElement) => element.currentTime), { timeout: 15_000 })
    .toBeGreaterThan(0.5);
}

for (const name of landers) {
  test(`lander ${name}: its own content, a two-step signup, the ad's tracking on the new member`, async ({
    page,
  }) => {
    await page.setViewportSize(phone);
    const url = `/landers/${name}/e2e-slug?network=adnet&ref=r-${name}&sub1=phone`;
    if (name === 'video' || name === 'transitionsvideolanding') await gotoWithVideo(page, url);
    else await page.goto(url);
    await expect(page.locator(`[data-lander="${name}"]`)).toBeVisible();
    // Plain HTML: no React Router scripts on a lander.
    expect(await page.locator('script[src], link[rel="modulepreload"]').count()).toBe(0);
    await ownContent[name](page);
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: `test-results/lander-${name}.png` });

    // Step one: one tap each; step two appears.
    const form = page.locator('#signup');
    await form.scrollIntoViewIfNeeded();
    const email = form.getByLabel('E-mail address');
    await expect(email).toBeHidden();
    await form.getByRole('radio', { name: 'Man', exact: true }).check();
    await form.getByRole('radio', { name: 'Women', exact: true }).check();
    await expect(email).toBeVisible();
    const address = e2eEmail();
    await email.fill(address);
    await form.getByLabel('Password', { exact: true }).fill('Copper-lantern-55');
    await form.getByLabel('Date of birth').fill('1989-03-09');
    // The name is optional: left empty, the suggestion is used.
    const suggestion = (await form.getByLabel('Username (optional)').getAttribute('placeholder')) ?? '';
    await form.getByRole('button', { name: 'Create my account' }).click();

    // (a #signup fragment of the lander stays on the URL across the redirect, as browsers do)
    await expect(page).toHaveURL(/\/signup-matches(#signup)?$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Suggested for you');
    const me = await (await page.request.get('/api/user.php')).json();
    expect(me.user.email).toBe(address);
    expect(me.user.trafficsource).toMatchObject({ network: 'adnet', ref: `r-${name}`, sub1: 'phone' });
    const profile = await (await page.request.get('/api/profile.php')).json();
    expect(profile.profile ?? profile).toMatchObject({ name: suggestion, gender: 'male', seeking: 'female' });
  });
}

test.describe('the swipe lander on a phone', () => {
  test.use(touchPhone);

  test('ten swipes by finger and by button: the page never gets wider, each swiped card leaves', async ({
    page,
  }) => {
    await page.goto('/landers/tinderswipe?network=fb&ref=x&sub1=a');
    await expect(page.locator('html.js')).toHaveCount(1);
    expect(await scrollWidth(page)).toBe(390);
    const cards = page.locator('[data-swipe-card]');
    const waiting = page.locator('[data-swipe-card]:not([data-gone])');
    for (let swipe = 1; swipe <= 10; swipe++) {
      const left = await waiting.count();
      if (left > 0 && swipe % 2 === 1) {
        const top = waiting.last();
        await top.scrollIntoViewIfNeeded();
        await touchDrag(page, top, swipe % 4 === 1 ? -150 : 150);
      } else {
        await tapUntil(page.getByRole('link', { name: swipe % 4 === 0 ? 'Like' : 'Pass' }), () =>
          expect(waiting).toHaveCount(Math.max(0, left - 1), { timeout: 1000 }),
        );
      }
      // While the card flies off and once it has gone: never wider than the phone.
      expect(await scrollWidth(page), `swipe ${swipe}, in flight`).toBe(390);
      if (left > 0) {
        await expect(waiting).toHaveCount(left - 1);
        await expect(cards).toHaveCount(left - 1);
      }
      expect(await scrollWidth(page), `swipe ${swipe}, landed`).toBe(390);
    }
    // The taps reached the stack and the first like opened the signup, nothing else.
    await expect(page.locator('#signup')).toBeVisible();
    await expect(page).toHaveURL(/\/landers\/tinderswipe/);
  });
});

test('lander signup: errors inline in the visitor language, and the 18+ answer counts for the whole site', async ({
  browser,
  baseURL,
}) => {
  // A visitor who has not closed the 18+ notice yet (the shared fixture skips it).
  const context = await browser.newContext({ baseURL, viewport: phone });
  const page = await context.newPage();
  // The notice is on: a new visitor of the home page sees it.
  await page.goto('/');
  await expect(page.getByTestId('site-entry-warning')).toBeVisible();
  await context.clearCookies();
  await page.goto('/landers/gallery?lang=de');
  const form = page.locator('#signup');
  await form.getByRole('radio', { name: 'Frau', exact: true }).check();
  await form.getByRole('radio', { name: 'Männer', exact: true }).check();
  await form.getByLabel('E-Mail-Adresse').fill('not-an-address');
  await form.getByLabel('Passwort', { exact: true }).fill('Copper-lantern-55');
  const tooYoung = new Date();
  tooYoung.setFullYear(tooYoung.getFullYear() - 16);
  await form.getByLabel('Geburtsdatum').fill(tooYoung.toISOString().slice(0, 10));
  await form.getByRole('button', { name: 'Konto erstellen' }).click();
  // Back on the lander with step two open, the answers kept and the errors in German.
  await expect(page).toHaveURL(/\/landers\/gallery/);
  await expect(form.getByLabel('E-Mail-Adresse')).toHaveValue('not-an-address');
  await expect(form.locator('#lsu-email-error')).toHaveText(/E-Mail-Adresse/);
  await expect(form.getByLabel('E-Mail-Adresse')).toHaveAttribute('aria-invalid', 'true');

  await form.getByLabel('E-Mail-Adresse').fill(e2eEmail());
  await form.getByLabel('Geburtsdatum').fill('1990-05-01');
  await form.getByLabel('Passwort', { exact: true }).fill('Copper-lantern-55');
  await form.getByRole('button', { name: 'Konto erstellen' }).click();
  await expect(page).toHaveURL(/\/signup-matches$/);
  // The default layout would show the 18+ notice to a new visitor: the lander's answer counts.
  await expect(page.getByTestId('site-entry-warning')).toHaveCount(0);
  await page.goto('/members');
  await expect(page.getByTestId('site-entry-warning')).toHaveCount(0);
  await context.close();
});

test('member landing pages: fictional profiles only, four designs, the first message goes out', async ({
  page,
  request,
}) => {
  await page.setViewportSize(phone);
  const { profiles } = await (await request.get('/api/landers/profiles.php?limit=1')).json();
  const profile = profiles[0];
  const seen = new Set<string>();
  for (const variant of ['landing', 'landing2/spring', 'landing3', 'signup']) {
    await page.goto(`/members/${profile.id}/${variant}`);
    const html = await page.content();
    seen.add(html.match(/data-variant="([^"]+)"/)?.[1] ?? '');
    await expect(page.getByRole('heading', { level: 1 })).toContainText(profile.name);
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: `test-results/member-${variant.replace('/', '-')}.png` });
  }
  expect(seen.size).toBe(4);
  expect((await request.get('/members/999999/landing')).status()).toBe(404);

  await page.goto(`/members/${profile.id}/landing?network=pushnet`);
  const form = page.locator('#signup');
  await form.getByRole('radio', { name: 'Man', exact: true }).check();
  await form.getByRole('radio', { name: 'Women', exact: true }).check();
  await form.getByLabel(`Your message to ${profile.name}`).fill(`Hello ${profile.name}, nice photo!`);
  await form.getByLabel('E-mail address').fill(e2eEmail());
  await form.getByLabel('Password', { exact: true }).fill('Copper-lantern-55');
  await form.getByLabel('Date of birth').fill('1985-01-20');
  await form.getByLabel('Username (optional)').fill('Landed');
  await form.getByRole('button', { name: 'Create my account' }).click();
  await expect(page).toHaveURL(new RegExp(`/members/${profile.id}$`));
  const chats = await (await page.request.get('/api/chats.php')).json();
  expect(JSON.stringify(chats)).toContain(`Hello ${profile.name}, nice photo!`);
});

test('every lander answers with its own page; an unknown one is a 404', async ({ request }) => {
  const headings = new Set<string>();
  for (const name of landers) {
    const response = await request.get(`/landers/${name}/some-slug`);
    expect(response.status(), name).toBe(200);
    const html = await response.text();
    expect(html).toContain(`data-lander="${name}"`);
    headings.add(html.match(/<h1[^>]*>([^<]*)</)?.[1] ?? '');
  }
  expect(headings.size).toBe(landers.length);
  expect((await request.get('/landers/unknown')).status()).toBe(404);
});

test('a real member is never an ad: not on the landers or a member landing, on the home page only when opted in', async ({
  browser,
  baseURL,
  request,
}) => {
  const name = 'Quillonia';
  const { page, profileId } = await activeMember(browser, baseURL, name);
  await gotoHydrated(page, '/profile');
  const photo = await sharp({ create: { width: 400, height: 400, channels: 3, background: '#d53a7b' } })
    .png()
    .toBuffer();
  await page.locator('#photo-upload').setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: photo });
  await expect(page.getByTestId('own-photos').locator('img')).toHaveCount(1);

  const publicPages = [
    '/',
    '/landers/tinderswipe',
    ...[
      'alonetonight',
      'collagelanding',
      'gallery',
      'iconslanding',
      'maplanding',
      'socialnetwork',
      'transitionsvideolanding',
      'video',
    ].map((lander) => `/landers/${lander}`),
  ];
  for (const url of publicPages) {
    const response = await request.get(url);
    expect(response.status(), url).toBe(200);
    expect(await response.text(), url).not.toContain(name);
  }
  for (const variant of ['landing', 'landing2', 'landing3', 'signup']) {
    const response = await request.get(`/members/${profileId}/${variant}`);
    expect(response.status(), variant).toBe(404);
    expect(await response.text()).not.toContain(name);
  }

  // The setting is off by default; turned on, the member may headline the public pages.
  await gotoHydrated(page, '/notifications');
  const optIn = page.getByLabel(/Show my profile to visitors/);
  await expect(optIn).not.toBeChecked();
  await optIn.check();
  await page.getByRole('button', { name: 'Save privacy setting' }).click();
  await expect(page.getByText('Your settings have been saved.')).toBeVisible();
  await page.reload();
  await expect(page.getByLabel(/Show my profile to visitors/)).toBeChecked();
  expect(await (await request.get('/')).text()).toContain(name);
  // Ads are fictional only: an opted-in member is still no lander profile nor a member landing.
  expect(await (await request.get('/landers/gallery')).text()).not.toContain(name);
  expect((await request.get(`/members/${profileId}/landing`)).status()).toBe(404);
  await page.context().close();
});
