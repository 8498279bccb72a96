import { generate } from 'otplib';
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

const codeAt = (secret: string, offsetSeconds: number) =>
  generate({ secret, epoch: Math.floor(Date.now() / 1000) + offsetSeconds });
/** The current TOTP code, as an authenticator app shows it. */
const currentCode = (secret: string) => codeAt(secret, 0);
/** The next step's code (accepted within the ±30 s window): never the one the enrolment just used. */
const nextCode = (secret: string) => codeAt(secret, 30);

test('an operator signs in with TOTP, sees a member’s message arrive live and answers it; the member gets the reply live', async ({
  browser,
  baseURL,
  playwright,
}) => {
  test.setTimeout(120_000);
  // The demo admin (no ADMIN_EMAIL in the e2e server): its generated password is in the data folder.
  const admin = await demoAdmin(playwright, baseURL);

  const operatorEmail = e2eEmail();
  const operatorPassword = 'Copper-kettle-4471';
  expect(
    (
      await admin.post('/api/admin/staff.php', {
        data: {
          email: operatorEmail,
          name: 'Olivia',
          role: 'operator',
          password: adminChosen(operatorPassword),
          language: 'en',
        },
      })
    ).status(),
  ).toBe(201);
  // The operator enrols in two-factor sign-in (as the enrolment page does).
  const enrolment = await playwright.request.newContext({ baseURL });
  await enrolment.post('/api/admin/session.php', {
    data: { email: operatorEmail, password: adminChosen(operatorPassword) },
  });
  await chooseOwnPassword(enrolment, operatorPassword);
  const secret = (await (await enrolment.post('/api/admin/totp.php')).json()).secret as string;
  expect(
    (await enrolment.put('/api/admin/totp.php', { data: { code: await currentCode(secret) } })).status(),
  ).toBe(200);

  // The operator signs in: e-mail and password, then the code of the authenticator app.
  const operatorContext = await browser.newContext({ baseURL });
  const operator = await operatorContext.newPage();
  // Back-office pages are never indexed nor framed.
  const headers = (await operator.request.get('/admin/login')).headers();
  expect(headers['x-robots-tag']).toContain('noindex');
  expect(headers['x-frame-options']).toBe('DENY');
  await gotoHydrated(operator, '/admin/login');
  await operator.getByLabel('E-mail address').fill(operatorEmail);
  await operator.getByLabel('Password', { exact: true }).fill(operatorPassword);
  await operator.getByRole('button', { name: 'Sign in', exact: true }).click();
  const codeField = operator.getByLabel('Authentication code');
  await expect(codeField).toBeVisible();
  await codeField.fill(await nextCode(secret));
  await operator.getByRole('button', { name: 'Verify' }).click();
  await expect(operator).toHaveURL(/\/admin\/inbox$/);
  await expect(operator.locator('html')).toHaveAttribute('data-hydrated', 'true');
  await expect(operator.getByTestId('live-status')).toHaveText('Live');

  // A member writes to a fictional profile while the operator watches the inbox.
  const member = await activeMember(browser, baseURL, 'Marta');
  const [profile] = await fictionalProfiles(member.page.request, '');
  expect(profile).toBeTruthy();
  await gotoHydrated(member.page, `/members/${profile!.id}/chat`);
  await expect(member.page).toHaveURL(/\/chats\/\d+$/);
  await member.page.getByLabel(`Message to ${profile!.name}`).fill('Hi, are you free tonight?');
  await member.page.getByRole('button', { name: 'Send', exact: true }).click();

  const item = operator
    .getByTestId('inbox')
    .getByRole('listitem')
    .filter({ hasText: 'Hi, are you free tonight?' });
  await expect(item).toBeVisible();
  await expect(item).toContainText('Marta');
  await item.getByRole('link').click();
  await expect(operator).toHaveURL(/\/admin\/conversations\/\d+$/);
  await expect(operator.getByTestId('history')).toContainText('Hi, are you free tonight?');
  await expect(operator.locator('html')).toHaveAttribute('data-hydrated', 'true');
  // While the operator holds the conversation, the member's next message shows up in it live.
  await member.page.getByLabel(`Message to ${profile!.name}`).fill('Or tomorrow?');
  await member.page.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(operator.getByTestId('history')).toContainText('Or tomorrow?');
  await operator.getByLabel(`Reply as ${profile!.name}`).fill('Hi Marta! I might be 😊');
  await operator.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(operator).toHaveURL(/\/admin\/inbox/);
  await expect(operator.getByTestId('replies-today')).toHaveText('1');

  // The member's open chat shows the reply without a reload.
  await expect(member.page.getByTestId('chat-message').last()).toContainText('Hi Marta! I might be 😊');
  await admin.dispose();
  await enrolment.dispose();
});
