import { atEverySize, open, sizes } from './axe.ts';
import { activeMember, demoAdmin, expect, test } from './fixtures.ts';

/**
 * A moderator's warning shows on the member's standing; the member appeals it once; the appeal waits
 * in the moderators' queue (decision 054). Both pages at phone and desktop size, axe-clean.
 */
test('a warned member sees the strike, appeals once, and the appeal reaches the queue', async ({
  browser,
  baseURL,
  playwright,
}) => {
  test.setTimeout(300_000);
  const offender = await activeMember(browser, baseURL, 'Stig');
  const reporter = await activeMember(browser, baseURL, 'Runa');
  const reported = await reporter.page.request.post('/api/report.php', {
    data: { profile: offender.profileId, reason: 'spam', text: 'Copies the same text to everyone' },
  });
  expect(reported.status()).toBe(200);
  const admin = await demoAdmin(playwright, baseURL);
  const open_ = await (await admin.get('/api/admin/reports.php?status=open')).json();
  const report = (open_.reports as { id: number; reported: { profile_id: number } | null }[]).find(
    (one) => one.reported?.profile_id === offender.profileId,
  );
  expect(report).toBeDefined();
  const warned = await admin.put('/api/admin/reports.php', {
    data: { id: report?.id, action: 'warn', reason: 'spam to many members' },
  });
  expect(warned.status()).toBe(200);

  const { page } = offender;
  await open(page, '/profile/account');
  const standing = page.getByTestId('account-standing');
  await expect(standing.getByTestId('strike')).toHaveCount(1);
  await expect(standing).toContainText('Strike 1');
  await standing.getByText('Appeal', { exact: true }).click();
  await standing.getByLabel('Why should the moderators reconsider this?').fill('I wrote to two people only.');
  await standing.getByRole('button', { name: 'Send appeal' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Your appeal has been sent' })).toBeVisible();
  await expect(standing.getByTestId('appeal-status')).toHaveText('Appeal under review');
  const violations = await atEverySize(page, '/profile/account (standing)');
  for (const size of sizes) {
    await page.setViewportSize(size);
    await standing.scrollIntoViewIfNeeded();
    await standing.screenshot({ path: `docs/screens/standing-appeal-${size.width}.png` });
  }

  const staff = await browser.newContext({ baseURL, storageState: await admin.storageState() });
  const queue = await staff.newPage();
  await open(queue, '/admin/reports');
  const appeal = queue.locator('article').filter({ hasText: 'I wrote to two people only.' });
  await expect(appeal).toBeVisible();
  await expect(appeal).toContainText('Stig');
  violations.push(...(await atEverySize(queue, '/admin/reports (appeal)')));
  for (const size of sizes) {
    await queue.setViewportSize(size);
    await queue.screenshot({ path: `docs/screens/moderation-appeal-${size.width}.png` });
  }
  expect(violations).toEqual([]);
  await staff.close();
});
