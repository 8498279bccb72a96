import type { Page } from '@playwright/test';
import { demoAdmin, e2eEmail, expect, linkFrom, phone, test, waitForMail } from './fixtures.ts';

/** Opens a page and waits for its hydration (with room for a machine busy with other runs). */
async function gotoHydrated(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true', { timeout: 20_000 });
}

const shot = (name: string) => ({ path: `docs/screens/journey-${name}-390.png`, fullPage: false });

/**
 * The first ten minutes of an organic member, on a phone: sign-up, activation, the opener script's
 * like, message and visit from a fictional profile, the member's answer, and "who viewed me" veiled
 * for a free member; then at desktop size the veiled visitors and the answer in the operators' queue. The opener's steps run at `after_minutes: 0`, so the server's job runner takes
 * them on its next tick; the journey waits on what the member's pages show, never on a clock.
 */
test('a new member on a phone: sign-up, activation, an opener like, message and visit, the answer, veiled visitors, the queue', async ({
  browser,
  baseURL,
  playwright,
}) => {
  test.setTimeout(180_000);
  const admin = await demoAdmin(playwright, baseURL);
  const { sites } = (await (await admin.get('/api/admin/sites.php')).json()) as { sites: { id: number }[] };
  const steps = [
    { after_minutes: 0, kind: 'like' },
    { after_minutes: 0, kind: 'message', text: 'Hello {member_name}, {profile_name} here. How is your day?' },
    { after_minutes: 0, kind: 'visit' },
  ];
  // On only while this journey runs: other journeys expect quiet inboxes.
  const scripts: { id: number; site: number }[] = [];
  for (const site of sites) {
    const created = await admin.post('/api/admin/openers.php', {
      data: { site: site.id, language: 'en', active: true, steps, profiles: { same_country: false } },
    });
    expect(created.status()).toBe(201);
    scripts.push({ id: (await created.json()).script.id, site: site.id });
  }
  const context = await browser.newContext({ ...phone, baseURL });
  try {
    await context.addCookies([{ name: 'skip_site_entry', value: '1', url: baseURL ?? 'http://localhost' }]);
    const page = await context.newPage();

    // Sign-up.
    const email = e2eEmail();
    await gotoHydrated(page, '/signup');
    await page.getByLabel('E-mail address').fill(email);
    await page.getByLabel('Username').fill('Maren');
    await page.getByLabel('Password', { exact: true }).fill('Saffron-river-93');
    await page.getByLabel('Date of birth').fill('1992-03-14');
    await page.screenshot(shot('01-signup'));
    await page.getByRole('button', { name: 'Create my account' }).click();
    await expect(page).toHaveURL(/\/complete-signup$/, { timeout: 20_000 });
    await page.screenshot(shot('02-check-mail'));

    // Activation from the mail's link.
    const link = new URL(linkFrom(await waitForMail(email, '/api/activate.php'), '/api/activate.php'));
    await page.goto(link.pathname + link.search);
    await expect(page).toHaveURL(/\/activate\/done$/, { timeout: 20_000 });
    await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true', { timeout: 20_000 });
    // No photo yet: adding one is the first thing offered, search the second.
    await expect(page.getByTestId('activation-next').getByRole('link')).toHaveText([
      'Add your first photo',
      'Start searching',
    ]);
    await page.screenshot(shot('03-activated'));

    // The opener's first contact: a message in the chats and a like in Likes.
    let from: { id: number; name: string } | undefined;
    await expect
      .poll(
        async () => {
          const { chats } = await (await page.request.get('/api/chats.php')).json();
          from = chats[0]?.profile;
          return chats[0]?.conversation.last_message.text ?? '';
        },
        { timeout: 30_000 },
      )
      .toContain('How is your day?');
    const sender = from!;
    await expect
      .poll(async () => {
        const likes = await (await page.request.get('/api/likes.php')).json();
        return likes.received.length;
      })
      .toBeGreaterThan(0);
    await gotoHydrated(page, '/likes');
    await expect(page.getByTestId('likes-received').getByRole('listitem').first()).toBeVisible();
    // The card's buttons stay inside the card on a two-column phone grid (none clipped).
    const card = page.getByTestId('likes-received').getByRole('listitem').first();
    const edge = await card.boundingBox();
    for (const button of await card.locator('.profile-card-actions > *').all()) {
      const box = await button.boundingBox();
      expect(box!.x + box!.width).toBeLessThanOrEqual(edge!.x + edge!.width + 0.5);
    }
    await page.screenshot(shot('04-first-like'));

    // The member answers in the chat.
    await gotoHydrated(page, '/chats');
    const row = page.getByTestId('chat-list').getByRole('link').filter({ hasText: sender.name }).first();
    await expect(row).toContainText('How is your day?');
    await page.screenshot(shot('05-chats'));
    await row.tap();
    await expect(page).toHaveURL(/\/chats\/\d+$/);
    const composer = page.getByLabel(`Message to ${sender.name}`);
    // On a touch screen the box waits for a tap (no keyboard popping over the first message).
    await expect(composer).not.toBeFocused();
    await composer.tap();
    await composer.fill(`Hi ${sender.name}, a good one, thanks! And yours?`);
    await page.getByRole('button', { name: 'Send', exact: true }).tap();
    await expect(page.getByTestId('chat-scroller').getByText('a good one, thanks!')).toBeVisible();
    // The opener's message is a minute old; its fictional sender shows no "Active … ago" beside it.
    const header = page
      .locator('header')
      .filter({ has: page.getByRole('heading', { name: new RegExp(sender.name) }) });
    await expect(header.getByTestId('presence')).toBeVisible();
    await expect(header).not.toContainText('Active');
    await page.screenshot(shot('06-answer'));

    // Who viewed me: the visit is there, veiled for a free member, with the way to Premium.
    await expect
      .poll(async () => (await (await page.request.get('/api/visitors.php')).json()).total)
      .toBeGreaterThan(0);
    await gotoHydrated(page, '/likes/visitors');
    await expect(page.getByTestId('visitor-veiled').first()).toBeVisible();
    await expect(page.getByTestId('visitors-upsell')).toContainText(/viewed your profile/);
    await expect(page.getByTestId('likes-visitors')).not.toContainText(sender.name);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(390);
    await page.screenshot(shot('07-visitors-veiled'));

    // The same moments at desktop size: the member's veiled visitors, and the operators' queue,
    // where the member's answer now waits.
    const desktop = { baseURL, viewport: { width: 1366, height: 900 } };
    const wide = await browser.newContext({ ...desktop, storageState: await context.storageState() });
    try {
      const visitors = await wide.newPage();
      await gotoHydrated(visitors, '/likes/visitors');
      await expect(visitors.getByTestId('visitor-veiled').first()).toBeVisible();
      await visitors.screenshot({ path: 'docs/screens/journey-07-visitors-veiled-1366.png' });
    } finally {
      await wide.close();
    }
    const staff = await browser.newContext({ ...desktop, storageState: await admin.storageState() });
    try {
      const inbox = await staff.newPage();
      await gotoHydrated(inbox, '/admin/inbox');
      await expect(
        inbox.getByTestId('inbox').getByRole('listitem').filter({ hasText: 'a good one, thanks!' }),
      ).toBeVisible();
      await inbox.screenshot({ path: 'docs/screens/journey-08-operator-queue-1366.png' });
    } finally {
      await staff.close();
    }
  } finally {
    await context.close();
    for (const script of scripts) {
      await admin.put('/api/admin/openers.php', {
        data: { id: script.id, site: script.site, language: 'en', active: false, steps },
      });
    }
  }
});
