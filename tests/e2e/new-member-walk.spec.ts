import type { Page } from '@playwright/test';
import { activeMember, demoAdmin, expect, phone, test } from './fixtures.ts';

/** Opens a page and waits for its hydration (with room for a machine busy with other runs). */
async function gotoHydrated(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true', { timeout: 20_000 });
}

/**
 * The new member's walk, as docs/walks/2026-12-02-new-member.md reads it: every area a new member
 * meets in the first minutes, on a phone (390×844, touch) and a desktop (1366), each screen
 * photographed for the walk and checked for a page wider than the screen. The match comes from an
 * opener script's like (a fictional profile), liked back on the Likes page.
 */
const devices = [
  { name: '390', options: phone, width: 390 },
  { name: '1366', options: { viewport: { width: 1366, height: 900 } }, width: 1366 },
] as const;

for (const device of devices) {
  test(`a new member's walk at ${device.name} px`, async ({ browser, baseURL, playwright }) => {
    test.setTimeout(180_000);
    const shot = async (page: Page, area: string) => {
      expect(await page.evaluate(() => document.documentElement.scrollWidth), area).toBe(device.width);
      await page.screenshot({ path: `docs/screens/walk-${area}-${device.name}.png` });
    };
    const admin = await demoAdmin(playwright, baseURL);
    const { sites } = (await (await admin.get('/api/admin/sites.php')).json()) as {
      sites: { id: number }[];
    };
    const steps = [{ after_minutes: 0, kind: 'like' }];
    const scripts: { id: number; site: number }[] = [];
    for (const site of sites) {
      const created = await admin.post('/api/admin/openers.php', {
        data: { site: site.id, language: 'en', active: true, steps, profiles: { same_country: false } },
      });
      expect(created.status()).toBe(201);
      scripts.push({ id: (await created.json()).script.id, site: site.id });
    }
    try {
      const visitor = await browser.newContext({ ...device.options, baseURL });
      await visitor.addCookies([{ name: 'skip_site_entry', value: '1', url: baseURL ?? 'http://localhost' }]);
      const signup = await visitor.newPage();
      const errors: string[] = [];
      signup.on('pageerror', (error) => errors.push(error.message));
      await gotoHydrated(signup, '/signup');
      await shot(signup, '01-signup');
      expect(errors).toEqual([]);
      await visitor.close();

      const { page } = await activeMember(browser, baseURL, 'Liv', device.options);
      await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
      // No photo yet: the photo is the first thing to do, search the second.
      const next = page.getByTestId('activation-next').getByRole('link');
      await expect(next).toHaveText(['Add your first photo', 'Start searching']);
      await expect(next.first()).toHaveAttribute('href', '/profile#photos');
      await shot(page, '02-activated');
      await gotoHydrated(page, '/profile');
      await expect(page.getByTestId('about-prompts')).toBeVisible();
      await shot(page, '03-profile-setup');
      // A prompt starts the empty "About me" and puts the cursor behind it.
      const about = page.getByLabel('About me');
      const prompt = page.getByRole('button', { name: 'A perfect Sunday is…' });
      if (device.name === '390') await prompt.tap();
      else await prompt.click();
      await expect(about).toHaveValue('A perfect Sunday is ');
      await expect(about).toBeFocused();
      await shot(page, '03-about-prompt');
      await gotoHydrated(page, '/members');
      await shot(page, '04-members');
      const first = page.locator('.profile-grid a').first();
      const href = await first.getAttribute('href');
      await gotoHydrated(page, href!);
      await shot(page, '05-profile');
      await gotoHydrated(page, '/swipe-game');
      await expect(page.locator('.swipe-stack, [data-testid="swipe-stack"]').first()).toBeVisible();
      await shot(page, '06-swipe-game');

      // The opener's like, liked back: the match moment.
      await expect
        .poll(async () => (await (await page.request.get('/api/likes.php')).json()).received.length, {
          timeout: 30_000,
        })
        .toBeGreaterThan(0);
      await gotoHydrated(page, '/likes');
      await page.getByRole('button', { name: 'Like back' }).first().click();
      const modal = page.getByTestId('match-modal');
      await expect(modal).toBeVisible();
      const dialog = modal.locator('.modal-content');
      // Measured once the dialog has slid into place.
      const box = async () => {
        const found = (await dialog.boundingBox())!;
        return [found.x, found.y, found.width, found.height].map(Math.round);
      };
      if (device.name === '390') {
        // The whole screen, as the dating apps show the match, with big faces.
        await expect.poll(box).toEqual([0, 0, 390, 844]);
        for (const face of await modal.locator('.match-photos > *').all())
          expect((await face.boundingBox())!.width).toBeGreaterThanOrEqual(150);
      } else {
        await expect.poll(async () => (await box())[1]).toBeGreaterThan(0);
        expect((await box())[2]).toBeLessThan(600);
      }
      // The member has no photo: their initial on the brand's colour, not an empty disc.
      await expect(modal.getByTestId('match-initial')).toHaveText('L');
      await shot(page, '07-match');
      // The keyboard stays in the dialog, "Send a message" first; Escape closes it.
      const send = modal.getByTestId('match-send-message');
      await page.keyboard.press('Tab');
      await expect(send).toBeFocused();
      for (let press = 0; press < 4; press++) {
        await page.keyboard.press('Tab');
        await expect(page.locator('.modal :focus')).toHaveCount(1);
      }
      const chatPath = (await send.getAttribute('href'))!;
      await page.keyboard.press('Escape');
      await expect(modal).toHaveCount(0);
      await gotoHydrated(page, chatPath);
      await expect(page).toHaveURL(/\/chats\/\d+$/, { timeout: 15_000 });
      const header = page.locator('header').filter({ has: page.getByRole('heading', { level: 1 }) });
      // A fictional profile that is not online shows no "Active … ago" beside the thread.
      await expect(header.getByTestId('presence')).toBeVisible();
      await expect(header).not.toContainText('Active');
      if (device.name === '1366') {
        // The column beside the chat lists the new match at once, before the first message.
        const open = page.getByTestId('chat-list').locator('a[aria-current="page"]');
        await expect(open).toContainText('No messages yet');
      }
      await shot(page, '08-chat');

      await gotoHydrated(page, '/premium');
      await shot(page, '09-paywall');
      await gotoHydrated(page, '/credits');
      await shot(page, '10-credits');
      await gotoHydrated(page, '/profile/account');
      await shot(page, '11-settings');
      await gotoHydrated(page, '/notifications');
      await shot(page, '12-notifications');
      await page.context().close();
    } finally {
      for (const script of scripts) {
        await admin.put('/api/admin/openers.php', {
          data: { id: script.id, site: script.site, language: 'en', active: false, steps },
        });
      }
    }
  });
}
