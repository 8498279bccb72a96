import AxeBuilder from '@axe-core/playwright';
import sharp from 'sharp';
import { activeMember, demoAdmin, expect, gotoHydrated, test } from './fixtures.ts';

// A member's main photo without a face is held by the real screening models (the server's thread):
// the member sees it "In review", the moderator sees it in the queue with the reason and the scores.
test('a photo without a face waits in review for the member and in the queue with its scores', async ({
  browser,
  baseURL,
  playwright,
}) => {
  test.setTimeout(120_000);
  const member = await activeMember(browser, baseURL, 'Sunniva');
  const file = await sharp({
    create: { width: 800, height: 600, channels: 3, background: { r: 70, g: 140, b: 90 } },
  })
    .jpeg()
    .toBuffer();
  const uploaded = await member.page.request.post('/api/photos.php', {
    multipart: { file: { name: 'field.jpg', mimeType: 'image/jpeg', buffer: file } },
  });
  expect(uploaded.status()).toBe(201);
  const photoId: number = (await uploaded.json()).photo.id;
  // The job runner polls every second; the models load at the first photo.
  await expect
    .poll(
      async () => (await (await member.page.request.get('/api/profile.php')).json()).profile.photos[0].status,
      {
        timeout: 60_000,
      },
    )
    .toBe('held');

  await gotoHydrated(member.page, '/profile');
  await expect(member.page.getByTestId('photo-in-review')).toContainText('In review');
  await member.page.getByTestId('photo-in-review').scrollIntoViewIfNeeded();
  await member.page.screenshot({ path: 'docs/screens/photo-in-review.png' });

  const admin = await demoAdmin(playwright, baseURL);
  for (const viewport of [
    { width: 1366, height: 900 },
    { width: 390, height: 844 },
  ]) {
    const context = await browser.newContext({ baseURL, viewport, storageState: await admin.storageState() });
    const page = await context.newPage();
    await gotoHydrated(page, '/admin/photos');
    const card = page.locator('.card', { has: page.locator(`img[alt="#${photoId}"]`) });
    await expect(card.getByTestId('hold-reason')).toHaveText('Held: no face in the main photo');
    await expect(card.getByTestId('photo-screening')).toContainText('0 faces');
    await expect(card.getByTestId('photo-screening')).toContainText('Neutral');
    const serious = (await new AxeBuilder({ page }).analyze()).violations.filter(
      (violation) => violation.impact === 'serious' || violation.impact === 'critical',
    );
    expect(serious.map((violation) => violation.id)).toEqual([]);
    await page.screenshot({ path: `docs/screens/admin-photo-queue-${viewport.width}.png` });
    await context.close();
  }
});
