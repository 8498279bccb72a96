import { createRequire } from 'node:module';
import path from 'node:path';
import sharp from 'sharp';
import { pageAxe } from './axe.ts';
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
    const serious = (await pageAxe(page).analyze()).violations.filter(
      (violation) => violation.impact === 'serious' || violation.impact === 'critical',
    );
    expect(serious.map((violation) => violation.id)).toEqual([]);
    await page.screenshot({ path: `docs/screens/admin-photo-queue-${viewport.width}.png` });
    await context.close();
  }
});

// A chat photo the models flag (the face model package's demo/sample2.jpg, clothed people the
// nudity classifier rates Porn about 0.5) waits for a moderator: its sender sees it "in review", the
// recipient nothing, until a moderator delivers it and it arrives as a photo message.
const flaggedPhoto = () => {
  const demo = path.join(
    path.dirname(createRequire(import.meta.url).resolve('@vladmandic/face-api/package.json')),
    'demo',
  );
  return sharp(path.join(demo, 'sample2.jpg')).jpeg().toBuffer();
};

test('a flagged chat photo is in review for its sender, unseen by the recipient, until a moderator delivers it', async ({
  browser,
  baseURL,
  playwright,
}) => {
  test.setTimeout(120_000);
  const sender = await activeMember(browser, baseURL, 'Ingrid', { viewport: { width: 390, height: 844 } });
  const recipient = await activeMember(browser, baseURL, 'Jonas');
  const page = sender.page;
  await gotoHydrated(page, `/members/${recipient.profileId}/chat`);
  await expect(page).toHaveURL(/\/chats\/\d+$/);
  const conversation = Number(new URL(page.url()).pathname.split('/').at(-1));

  await page.getByRole('button', { name: 'Send a photo' }).click();
  await page.getByTestId('device-photo-input').setInputFiles({
    name: 'party.jpg',
    mimeType: 'image/jpeg',
    buffer: await flaggedPhoto(),
  });
  await page
    .getByTestId('device-photo-picked')
    .getByRole('button', { name: /Send for 2 credits/ })
    .click();
  // The screening runs before the send answers (the models load at the first photo).
  const inReview = page.getByTestId('photo-in-review');
  await expect(inReview).toBeVisible({ timeout: 60_000 });
  await expect(inReview).toContainText('In review: your photo is delivered once a moderator has checked it.');
  await expect(inReview.getByRole('img', { name: 'Your photo, in review' })).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(390);
  await page.screenshot({ path: 'docs/screens/chat-photo-in-review-390.png' });
  const unseen = await (
    await recipient.page.request.get(`/api/chat.php?conversation=${conversation}`)
  ).json();
  expect(unseen.messages).toEqual([]);

  const admin = await demoAdmin(playwright, baseURL);
  const staff = await browser.newContext({
    baseURL,
    viewport: { width: 1366, height: 900 },
    storageState: await admin.storageState(),
  });
  try {
    const queue = await staff.newPage();
    await gotoHydrated(queue, '/admin/photos');
    const card = queue.getByTestId('chat-photos').locator('.card', { hasText: 'From Ingrid to Jonas' });
    await expect(card.getByTestId('hold-reason')).toBeVisible();
    await card.getByRole('button', { name: 'Deliver' }).click();
    await expect(
      queue.getByTestId('chat-photos').locator('.card', { hasText: 'From Ingrid to Jonas' }),
    ).toHaveCount(0);
  } finally {
    await staff.close();
  }

  // Delivered: the sender's thread swaps the "in review" photo for the message, live.
  await expect(inReview).toHaveCount(0);
  await expect(page.getByTestId('chat-message').last().locator('img')).toBeVisible();
  const delivered = await (
    await recipient.page.request.get(`/api/chat.php?conversation=${conversation}`)
  ).json();
  expect(delivered.messages).toMatchObject([{ kind: 'photo' }]);
});
