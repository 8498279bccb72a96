import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { e2eEmail, expect, serverDataDir, test } from './fixtures.ts';

async function lastSms(): Promise<string> {
  const dir = path.join(serverDataDir(), 'sms-outbox');
  const files = (await readdir(dir)).sort();
  return JSON.parse(await readFile(path.join(dir, files.at(-1)!), 'utf8')).text as string;
}

test('a direct-debit mandate is confirmed with the code from the SMS', async ({ page }) => {
  await page.goto('/signup');
  await page.getByLabel('E-mail address').fill(e2eEmail());
  await page.getByLabel('Username').fill('Debit');
  await page.getByLabel('Password', { exact: true }).fill('Meadow-harbor-81');
  await page.getByLabel('Date of birth').fill('1984-04-04');
  await page.getByRole('button', { name: 'Create my account' }).click();
  await expect(page).toHaveURL(/\/complete-signup$/);

  await page.goto('/directdebit');
  await page.getByLabel('Account holder').fill('R. Jansen');
  await page.getByLabel('IBAN').fill('NL91 ABNA 0417 1643 01');
  await page.getByLabel('Mobile phone number').fill('+31 6 1234 5678');
  await page.getByRole('button', { name: 'Send me the code' }).click();
  await expect(page.getByText('This IBAN is not valid. Please check it.')).toBeVisible();
  await page.getByLabel('IBAN').fill('NL91 ABNA 0417 1643 00');
  await page.getByRole('button', { name: 'Send me the code' }).click();
  await expect(page.getByLabel('Code')).toBeVisible();
  const code = (await lastSms()).match(/\b(\d{6})\b/)?.[1] ?? '';
  await page.getByLabel('Code').fill(code);
  await page.getByRole('button', { name: 'Confirm mandate' }).click();
  await expect(page.getByTestId('mandate-active')).toContainText('NL91 •••• 4300');
});

test('without JavaScript a refused mandate form comes back with what was typed', async ({
  browser,
  baseURL,
}) => {
  const context = await browser.newContext({ baseURL, javaScriptEnabled: false });
  await context.addCookies([{ name: 'skip_site_entry', value: '1', url: baseURL ?? 'http://localhost' }]);
  const page = await context.newPage();
  const signup = await page.request.post('/api/signup.php', {
    data: { email: e2eEmail(), name: 'NoScript', password: 'Meadow-harbor-81', date_of_birth: '1984-04-04' },
  });
  expect(signup.ok(), await signup.text()).toBe(true);
  await page.goto('/directdebit');
  await page.getByLabel('Account holder').fill('R. Jansen');
  await page.getByLabel('IBAN').fill('NL91 ABNA 0417 1643 01');
  await page.getByLabel('Mobile phone number').fill('+31 6 1234 5678');
  // A full page load: the server's answer is all there is.
  await page.getByRole('button', { name: 'Send me the code' }).click();
  await expect(page.getByText('This IBAN is not valid. Please check it.')).toBeVisible();
  await expect(page.getByLabel('Account holder')).toHaveValue('R. Jansen');
  await expect(page.getByLabel('IBAN')).toHaveValue('NL91 ABNA 0417 1643 01');
  await expect(page.getByLabel('Mobile phone number')).toHaveValue('+31 6 1234 5678');
  await context.close();
});
