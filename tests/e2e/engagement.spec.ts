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
  gotoHydrated,
  test,
} from './fixtures.ts';

const seriousOrWorse = async (page: Page) => {
  await page.emulateMedia({ reducedMotion: 'reduce' });
  return (await pageAxe(page).analyze()).violations.filter(
    (violation) => violation.impact === 'serious' || violation.impact === 'critical',
  );
};

const sizes = [
  { name: '1366', viewport: { width: 1366, height: 900 } },
  { name: '390', viewport: { width: 390, height: 844 } },
] as const;

test('a new member gets a like and a message from an opener script; the reply reaches the operators', async ({
  browser,
  baseURL,
  playwright,
}) => {
  test.setTimeout(180_000);
  const admin = await demoAdmin(playwright, baseURL);
  const { sites } = (await (await admin.get('/api/admin/sites.php')).json()) as { sites: { id: number }[] };
  const steps = [
    { after_minutes: 0, kind: 'like' },
    { after_minutes: 0, kind: 'message', text: 'Hi {member_name}, I am {profile_name}. Fancy a chat?' },
  ];
  // One English script per site, on only while this journey runs: other journeys expect quiet inboxes.
  const scripts: { id: number; site: number }[] = [];
  for (const site of sites) {
    const created = await admin.post('/api/admin/openers.php', {
      data: { site: site.id, language: 'en', active: true, steps, profiles: { same_country: false } },
    });
    expect(created.status()).toBe(201);
    scripts.push({ id: (await created.json()).script.id, site: site.id });
  }
  try {
    const member = await activeMember(browser, baseURL, 'Elodie');
    // The runner polls every second: the like and the message come within a tick or two.
    let chat:
      | { profile: { id: number; name: string }; conversation: { last_message: { text: string } } }
      | undefined;
    await expect
      .poll(async () => {
        const { chats } = await (await member.page.request.get('/api/chats.php')).json();
        chat = chats[0];
        return chat?.conversation.last_message.text ?? '';
      })
      .toContain('Fancy a chat?');
    const profile = chat!.profile;
    expect(chat!.conversation.last_message.text).toBe(`Hi Elodie, I am ${profile.name}. Fancy a chat?`);
    // Both steps are due at once and run as separate jobs: the like may come a tick after the message.
    await expect
      .poll(async () => {
        const likes = await (await member.page.request.get('/api/likes.php')).json();
        return likes.received.map((entry: { id: number }) => entry.id);
      })
      .toContain(profile.id);

    // The member sees the message in their chats and answers it.
    await gotoHydrated(member.page, '/chats');
    await expect(member.page.getByText('Fancy a chat?')).toBeVisible();
    const reply = `Hi ${profile.name}, sure! ${randomBytes(3).toString('hex')}`;
    expect(
      (
        await member.page.request.post('/api/chat.php', { data: { profile: profile.id, text: reply } })
      ).status(),
    ).toBe(201);

    // An operator finds the reply in the queue, and the opener marked as automated.
    const email = e2eEmail();
    const password = `Op-${randomBytes(12).toString('base64url')}`;
    const created = await admin.post('/api/admin/staff.php', {
      data: { email, name: 'Opal', role: 'operator', password: adminChosen(password), language: 'en' },
    });
    expect(created.status()).toBe(201);
    // The operator's first steps, as the back office leads them: an own password, then TOTP.
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
    await setup.dispose();
    const context = await browser.newContext({ baseURL, viewport: { width: 1366, height: 900 } });
    const page = await context.newPage();
    await gotoHydrated(page, '/admin/login');
    await page.getByLabel('E-mail address').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    // The next step's code: the one the enrolment used is never accepted twice.
    await page.getByLabel('Authentication code').fill(await generate({ secret, epoch: now + 30 }));
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect(page).toHaveURL(/\/admin\/inbox$/);
    const row = page.getByTestId('inbox').getByRole('listitem').filter({ hasText: reply });
    await expect(row).toBeVisible();
    const { conversations } = await (await page.request.get('/api/admin/inbox.php')).json();
    const waiting = conversations.find(
      (entry: { last_message: { text: string } }) => entry.last_message.text === reply,
    );
    await gotoHydrated(page, `/admin/conversations/${waiting.id}`);
    const history = page.getByTestId('history');
    await expect(history.getByTestId('automated')).toHaveCount(1);
    await expect(history.getByRole('listitem').first()).toContainText('Automated');
    await page.screenshot({ path: 'docs/screens/admin-conversation-automated-1366.png', fullPage: true });
    await context.close();

    // The admin pages, at desktop and phone width.
    for (const size of sizes) {
      const adminContext = await browser.newContext({
        baseURL,
        viewport: size.viewport,
        storageState: await admin.storageState(),
      });
      const adminPage = await adminContext.newPage();
      await gotoHydrated(adminPage, '/admin/openers');
      await expect(adminPage.getByRole('heading', { name: 'Opener scripts', level: 1 })).toBeVisible();
      const listed = adminPage.getByTestId(`opener-${scripts[0]!.id}`);
      await expect(listed).toContainText('On');
      expect(await seriousOrWorse(adminPage)).toEqual([]);
      await adminPage.screenshot({ path: `docs/screens/admin-openers-${size.name}.png`, fullPage: true });

      await gotoHydrated(adminPage, '/admin/mass-messages');
      await expect(adminPage.getByRole('heading', { name: 'Mass messages', level: 1 })).toBeVisible();
      await adminPage.getByLabel('Message', { exact: true }).fill('Hello {member_name}, a quiet evening?');
      await adminPage.getByLabel('Country').fill('ZZ');
      await expect(adminPage.getByTestId('preview-count')).toHaveText('0 members will get this message');
      await adminPage.getByLabel('Country').fill('');
      await expect(adminPage.getByTestId('preview-count')).toHaveText(
        /[1-9]\d* members? will get this message/,
      );
      if (size.name === '1366') {
        await adminPage.getByRole('button', { name: 'Send to the segment' }).click();
        await expect(adminPage.getByText('Campaign queued.')).toBeVisible();
        await expect(adminPage.locator('tbody tr').first()).toContainText('Done', { timeout: 30_000 });
      }
      expect(await seriousOrWorse(adminPage)).toEqual([]);
      await adminPage.screenshot({
        path: `docs/screens/admin-mass-messages-${size.name}.png`,
        fullPage: true,
      });
      await adminContext.close();
    }
  } finally {
    for (const script of scripts) {
      await admin.put('/api/admin/openers.php', {
        data: { id: script.id, site: script.site, language: 'en', active: false, steps },
      });
    }
  }
});
