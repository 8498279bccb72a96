import { randomBytes } from 'node:crypto';
import type { Page } from '@playwright/test';
import { generate } from 'otplib';
import { pageAxe } from './axe.ts';
import {
  activeMember,
  adminChosen,
  chooseOwnPassword,
  demoAdmin,
  e2eEmail,
  expect,
  fictionalProfiles,
  gotoHydrated,
  test,
} from './fixtures.ts';

const seriousOrWorse = async (page: Page) => {
  await page.emulateMedia({ reducedMotion: 'reduce' });
  return (await pageAxe(page).analyze()).violations.filter(
    (violation) => violation.impact === 'serious' || violation.impact === 'critical',
  );
};

test('a lead sees a waiting conversation appear on the board live, and starts a conversation as a profile', async ({
  browser,
  baseURL,
  playwright,
}) => {
  test.setTimeout(180_000);
  const admin = await demoAdmin(playwright, baseURL);
  // A lead, created by the admin, with an own password and TOTP.
  const email = e2eEmail();
  const password = `Ld-${randomBytes(12).toString('base64url')}`;
  const created = await admin.post('/api/admin/staff.php', {
    data: { email, name: 'Leonie Lead', role: 'lead', password: adminChosen(password), language: 'en' },
  });
  expect(created.status()).toBe(201);
  const setup = await playwright.request.newContext({ baseURL });
  await setup.post('/api/admin/session.php', { data: { email, password: adminChosen(password) } });
  await chooseOwnPassword(setup, password);
  const secret = (await (await setup.post('/api/admin/totp.php')).json()).secret as string;
  const now = Math.floor(Date.now() / 1000);
  expect(
    (
      await setup.put('/api/admin/totp.php', { data: { code: await generate({ secret, epoch: now }) } })
    ).status(),
  ).toBe(200);
  const storageState = await setup.storageState();
  await setup.dispose();

  const context = await browser.newContext({ baseURL, viewport: { width: 1366, height: 900 }, storageState });
  const page = await context.newPage();
  await gotoHydrated(page, '/admin/board');
  await expect(page.getByRole('heading', { name: 'Board', level: 1 })).toBeVisible();
  await expect(page.getByText('Live', { exact: true })).toBeVisible();
  const summary = page.getByTestId('board-summary');
  const before = (await summary.textContent()) ?? '';
  const waitingBefore = Number(/\d+/.exec(before)?.[0] ?? 0);

  // A member writes to a fictional profile: the board counts one more waiting, without a reload.
  const member = await activeMember(browser, baseURL, 'Bruno');
  const [profile] = await fictionalProfiles(member.page.request, '');
  const sent = await member.page.request.post('/api/chat.php', {
    data: { profile: profile!.id, text: `Anyone there? ${randomBytes(3).toString('hex')}` },
  });
  expect(sent.status()).toBe(201);
  await expect(summary).toContainText(`${waitingBefore + 1} waiting`);
  await expect(page.getByTestId('board-queues')).toBeVisible();
  await expect(page.getByTestId('board-operators')).toContainText('Leonie Lead');
  expect(await seriousOrWorse(page)).toEqual([]);
  await page.screenshot({ path: 'docs/screens/admin-board-1366.png', fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  expect(await seriousOrWorse(page)).toEqual([]);
  await page.screenshot({ path: 'docs/screens/admin-board-390.png', fullPage: true });
  await page.setViewportSize({ width: 1366, height: 900 });

  // Outbound: another member, written to first as one of the site's profiles.
  const other = await activeMember(browser, baseURL, 'Carla');
  await gotoHydrated(page, `/admin/outbound?member=${other.profileId}`);
  await expect(page.getByRole('heading', { name: 'Start a conversation', level: 1 })).toBeVisible();
  expect(await seriousOrWorse(page)).toEqual([]);
  const text = `Hello Carla, nice to meet you ${randomBytes(3).toString('hex')}`;
  await page.getByLabel('First message').fill(text);
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByRole('status')).toContainText('Sent.');
  await page.screenshot({ path: 'docs/screens/admin-outbound-1366.png', fullPage: true });
  await expect
    .poll(async () => {
      const { chats } = await (await other.page.request.get('/api/chats.php')).json();
      return chats[0]?.conversation.last_message.text ?? '';
    })
    .toBe(text);
  await context.close();
});
