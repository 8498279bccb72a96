import { generate } from 'otplib';
import {
  activeMember,
  adminChosen,
  chooseOwnPassword,
  demoAdmin,
  e2eEmail,
  expect,
  gotoHydrated,
  test,
  waitForMail,
} from './fixtures.ts';

const codeAt = (secret: string, offsetSeconds: number) =>
  generate({ secret, epoch: Math.floor(Date.now() / 1000) + offsetSeconds });

test('a moderator signs in with TOTP, finds a member report in the queue and warns the member', async ({
  browser,
  baseURL,
  playwright,
}) => {
  test.setTimeout(120_000);
  // The demo admin (no ADMIN_EMAIL in the e2e server) creates a moderator, as operator.spec.ts does.
  const admin = await demoAdmin(playwright, baseURL);

  const moderatorEmail = e2eEmail();
  const moderatorPassword = 'Granite-harbour-5182';
  expect(
    (
      await admin.post('/api/admin/staff.php', {
        data: {
          email: moderatorEmail,
          name: 'Mona',
          role: 'moderator',
          password: adminChosen(moderatorPassword),
          language: 'en',
        },
      })
    ).status(),
  ).toBe(201);
  const enrolment = await playwright.request.newContext({ baseURL });
  await enrolment.post('/api/admin/session.php', {
    data: { email: moderatorEmail, password: adminChosen(moderatorPassword) },
  });
  await chooseOwnPassword(enrolment, moderatorPassword);
  const secret = (await (await enrolment.post('/api/admin/totp.php')).json()).secret as string;
  expect(
    (await enrolment.put('/api/admin/totp.php', { data: { code: await codeAt(secret, 0) } })).status(),
  ).toBe(200);

  // A member writes something bad; the other reports the message.
  const offender = await activeMember(browser, baseURL, 'Olaf');
  const reporter = await activeMember(browser, baseURL, 'Rhea');
  const offenderEmail = (await (await offender.page.request.get('/api/user.php')).json()).user
    .email as string;
  const sent = await offender.page.request.post('/api/chat.php', {
    data: { profile: reporter.profileId, text: 'Send me 200 euros first' },
  });
  expect(sent.status()).toBe(201);
  const messageId = (await sent.json()).message.id as number;
  expect(
    (
      await reporter.page.request.post('/api/report.php', {
        data: { message: messageId, reason: 'scam', text: 'He asks me for money' },
      })
    ).status(),
  ).toBe(200);

  // The moderator signs in: password, then the authenticator code.
  const context = await browser.newContext({ baseURL });
  const moderator = await context.newPage();
  await gotoHydrated(moderator, '/admin/login');
  await moderator.getByLabel('E-mail address').fill(moderatorEmail);
  await moderator.getByLabel('Password', { exact: true }).fill(moderatorPassword);
  await moderator.getByRole('button', { name: 'Sign in', exact: true }).click();
  const codeField = moderator.getByLabel('Authentication code');
  await expect(codeField).toBeVisible();
  await codeField.fill(await codeAt(secret, 30));
  await moderator.getByRole('button', { name: 'Verify' }).click();
  await expect(moderator).toHaveURL(/\/admin\/inbox$/);

  await moderator.getByRole('link', { name: 'Reports' }).click();
  await expect(moderator).toHaveURL(/\/admin\/reports$/);
  await expect(moderator.locator('html')).toHaveAttribute('data-hydrated', 'true');
  const card = moderator.locator('article').filter({ hasText: 'He asks me for money' });
  await expect(card).toBeVisible();
  await expect(card).toContainText('Olaf');
  await expect(card).toContainText('Reported by Rhea');
  await expect(card.getByTestId('evidence')).toContainText('Send me 200 euros first');
  await card.getByLabel('Action').selectOption({ label: 'Warn by e-mail' });
  await card.getByLabel('Reason (kept in the audit log)').fill('asks for money up front');
  await card.getByLabel('Yes, I am sure').check();
  await card.getByRole('button', { name: 'Carry out' }).click();
  await expect(moderator.getByRole('status')).toContainText('The report has been handled.');
  await expect(moderator.locator('article').filter({ hasText: 'He asks me for money' })).toHaveCount(0);

  // The member gets the warning in their language; the handled report names the moderator.
  const mail = await waitForMail(offenderEmail, 'house rules');
  expect(mail.subject).toContain('A note from the moderators');
  await moderator.getByRole('link', { name: 'Handled' }).click();
  const handled = moderator.locator('article').filter({ hasText: 'He asks me for money' });
  await expect(handled).toContainText('Warn by e-mail · Mona');
  // The audit log has the action.
  const audit = await (await admin.get('/api/admin/audit.php')).json();
  expect((audit.entries as { action: string }[]).some((entry) => entry.action === 'report.warn')).toBe(true);

  await admin.dispose();
  await enrolment.dispose();
});
