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
  phone,
  test,
} from './fixtures.ts';

/** axe's serious and critical findings on the page as it is (the sections filled in). */
async function seriousViolations(page: Page): Promise<string[]> {
  await page.emulateMedia({ reducedMotion: 'reduce' });
  const { violations } = await pageAxe(page)
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'])
    .analyze();
  return violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id} ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
}

/** Chromium's virtual authenticator on the page: a platform passkey that verifies the user at once. */
async function virtualAuthenticator(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return {
    credentials: async () => (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials,
  };
}

test('a member adds a passkey on the account page and signs in with it instead of the password', async ({
  browser,
  baseURL,
}) => {
  const { page } = await activeMember(browser, baseURL, 'Pia');
  const authenticator = await virtualAuthenticator(page);

  await gotoHydrated(page, '/profile/account');
  const passkeys = page.getByTestId('account-passkeys');
  await expect(passkeys.getByText('No passkeys yet.')).toBeVisible();
  await passkeys.getByRole('button', { name: 'Add a passkey' }).click();
  await expect(passkeys.getByRole('status')).toContainText('Passkey added');
  await expect(passkeys.getByTestId('passkey-list').getByRole('listitem')).toHaveCount(1);
  expect(await authenticator.credentials()).toHaveLength(1);

  // The devices list names this browser and marks it.
  const devices = page.getByTestId('account-devices');
  await expect(devices.getByText('This device')).toBeVisible();
  await expect(devices.getByTestId('device-list')).toContainText('Chrome');

  await page.setViewportSize({ width: 1366, height: 900 });
  await passkeys.scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'docs/screens/account-security-desktop.png', fullPage: true });
  expect(await seriousViolations(page)).toEqual([]);

  // Signed out, the login page offers the passkey; it signs in as a password does.
  await page
    .getByRole('button', { name: /log out|sign out/i })
    .first()
    .isVisible();
  expect((await page.request.post('/api/logout.php')).ok()).toBe(true);
  await gotoHydrated(page, '/login');
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
  await expect(page).toHaveURL(/\/members/);
  const me = await (await page.request.get('/api/user.php')).json();
  expect(me.user).not.toBeNull();

  // The logout ended the sign-up's session: the passkey's is the only one.
  await gotoHydrated(page, '/profile/account');
  await expect(page.getByTestId('device-list').getByRole('listitem')).toHaveCount(1);
});

test('the account sections on a phone', async ({ browser, baseURL }) => {
  const { page } = await activeMember(browser, baseURL, 'Noor', phone);
  await virtualAuthenticator(page);
  // A second device of the same member, signed in with the password.
  const email = (await (await page.request.get('/api/user.php')).json()).user.email as string;
  const other = await browser.newContext({
    baseURL,
    userAgent: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14.7; rv:132.0) Gecko/20100101 Firefox/132.0',
  });
  expect(
    (await other.request.post('/api/user.php', { data: { email, password: 'Saffron-river-93' } })).ok(),
  ).toBe(true);

  await gotoHydrated(page, '/profile/account');
  await page.getByTestId('account-passkeys').getByRole('button', { name: 'Add a passkey' }).click();
  await expect(page.getByTestId('passkey-list').getByRole('listitem')).toHaveCount(1);
  const devices = page.getByTestId('account-devices');
  await expect(devices.getByTestId('device-list').getByRole('listitem')).toHaveCount(2);
  await expect(devices).toContainText('Firefox · macOS');
  await devices.scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'docs/screens/account-security-phone.png', fullPage: true });
  expect(await seriousViolations(page)).toEqual([]);

  // Signing the other device out ends its session at once.
  await devices.getByRole('button', { name: 'Sign out Firefox · macOS' }).click();
  await expect(devices.getByRole('status')).toContainText('signed out');
  expect((await (await other.request.get('/api/user.php')).json()).user).toBeNull();
  await other.close();
});

test('staff add a passkey and sign in with password and passkey instead of the code', async ({
  browser,
  baseURL,
  playwright,
}) => {
  const admin = await demoAdmin(playwright, baseURL);
  const email = e2eEmail();
  const password = 'Copper-kettle-5150';
  expect(
    (
      await admin.post('/api/admin/staff.php', {
        data: { email, name: 'Pascal', role: 'operator', password: adminChosen(password) },
      })
    ).status(),
  ).toBe(201);
  // The account's first steps (own password, TOTP), as the back office leads a new operator.
  const setup = await playwright.request.newContext({ baseURL });
  await setup.post('/api/admin/session.php', { data: { email, password: adminChosen(password) } });
  await chooseOwnPassword(setup, password);
  const secret = (await (await setup.post('/api/admin/totp.php')).json()).secret as string;
  const now = Math.floor(Date.now() / 1000);
  const enrolled = await setup.put('/api/admin/totp.php', {
    data: { code: await generate({ secret, epoch: now }) },
  });
  expect(enrolled.status()).toBe(200);
  await setup.dispose();

  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  await virtualAuthenticator(page);
  await gotoHydrated(page, '/admin/login');
  await page.getByLabel('E-mail address').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.getByLabel('Authentication code').fill(await generate({ secret, epoch: now + 30 }));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).toHaveURL(/\/admin\/inbox$/);

  await gotoHydrated(page, '/admin/account');
  await page.getByRole('button', { name: 'Add a passkey' }).click();
  await expect(page.getByTestId('passkey-list').getByRole('listitem')).toHaveCount(1);
  await expect(page.getByTestId('device-list')).toContainText('This device');
  await page.setViewportSize({ width: 1366, height: 900 });
  await page.screenshot({ path: 'docs/screens/admin-account-security-desktop.png', fullPage: true });
  expect(await seriousViolations(page)).toEqual([]);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: 'docs/screens/admin-account-security-phone.png', fullPage: true });
  expect(await seriousViolations(page)).toEqual([]);

  await context.clearCookies();
  await gotoHydrated(page, '/admin/login');
  await page.getByLabel('E-mail address').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in with password and passkey' }).click();
  await expect(page).toHaveURL(/\/admin\/inbox$/);
  const session = await (await page.request.get('/api/admin/session.php')).json();
  expect(session.staff.email).toBe(email);
  await context.close();
});
