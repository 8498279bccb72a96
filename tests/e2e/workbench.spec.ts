import { randomBytes } from 'node:crypto';
import { generate } from 'otplib';
import { pageAxe, seriousViolations } from './axe.ts';
import {
  activeMember,
  adminChosen,
  demoAdmin,
  e2eEmail,
  expect,
  fictionalProfiles,
  gotoHydrated,
  test,
} from './fixtures.ts';

const sizes = [
  {
    name: 'desktop',
    viewport: { width: 1366, height: 900 },
    language: 'fi',
    texts: ['Moi, oletko siellä?', 'Hei taas!'],
    templateTitle: 'Tervehdys',
    template: 'Hei {member_name}! Olen täällä 😊',
    reply: 'Hei Aino! Olen täällä 😊',
  },
  {
    name: 'phone',
    viewport: { width: 390, height: 844 },
    language: 'sv',
    texts: ['Hej, är du där?', 'Hallå igen!'],
    templateTitle: 'Hälsning',
    template: 'Hej {member_name}! Här är jag 😊',
    reply: 'Hej Aino! Här är jag 😊',
  },
] as const;

for (const size of sizes) {
  test(`an operator claims the next conversation, answers with the shortcut and lands in the next one (${size.name})`, async ({
    browser,
    baseURL,
    playwright,
  }) => {
    test.setTimeout(120_000);
    const admin = await demoAdmin(playwright, baseURL);
    const email = e2eEmail();
    const password = `Wb-${randomBytes(12).toString('base64url')}`;
    const created = await admin.post('/api/admin/staff.php', {
      data: {
        email,
        name: `Wren ${size.name}`,
        role: 'operator',
        password: adminChosen(password),
        language: 'en',
      },
    });
    expect(created.status()).toBe(201);
    const operatorId = (await created.json()).staff.id as number;
    // This operator answers members writing in one language only: the queue holds this test's rows.
    const assigned = await admin.put('/api/admin/staff.php', {
      data: { id: operatorId, languages: [size.language] },
    });
    expect(assigned.status()).toBe(200);
    // A template in that language, with the member's name filled in by the console.
    const template = await admin.post('/api/admin/templates.php', {
      data: { language: size.language, title: size.templateTitle, text: size.template },
    });
    expect(template.status()).toBe(201);

    // A member writing in that language waits for two fictional profiles.
    const member = await activeMember(browser, baseURL, 'Aino');
    expect(
      (await member.page.request.put('/api/user.php', { data: { language: size.language } })).status(),
    ).toBe(200);
    const fictional = await fictionalProfiles(member.page.request, '', 2);
    expect(fictional.length).toBeGreaterThanOrEqual(2);
    const [first, second] = fictional as [(typeof fictional)[number], (typeof fictional)[number]];
    for (const profile of [first, second]) {
      const persona = await admin.put('/api/admin/persona.php', {
        data: {
          profile: profile.id,
          facts: {
            job: 'Runs a flower shop',
            city: 'Lives by the harbour',
            family: 'One sister, no children',
            hobbies: 'Sailing, sourdough, crime novels',
            style: 'Short sentences, warm, one emoji at most',
          },
        },
      });
      expect(persona.status()).toBe(200);
    }
    for (const [profile, text] of [
      [first, size.texts[0]],
      [second, size.texts[1]],
    ] as const) {
      const sent = await member.page.request.post('/api/chat.php', { data: { profile: profile.id, text } });
      expect(sent.status()).toBe(201);
    }

    const context = await browser.newContext({ baseURL, viewport: size.viewport });
    const page = await context.newPage();
    // The first sign-in, with the admin's password, leads to "choose your password" and nowhere else.
    await gotoHydrated(page, '/admin/login');
    await page.getByLabel('E-mail address').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(adminChosen(password));
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(page).toHaveURL(/\/admin\/password$/);
    await expect(page.getByRole('heading', { name: 'Choose your password' })).toBeVisible();
    await page.getByLabel('Current password').fill(adminChosen(password));
    await page.getByLabel('New password').fill(password);
    await page.getByRole('button', { name: 'Save password' }).click();
    // Then two-factor enrolment, which every role goes through (done here as the enrolment page does).
    await expect(page).toHaveURL(/\/admin\/enrol$/);
    const enrolment = await playwright.request.newContext({ baseURL });
    expect((await enrolment.post('/api/admin/session.php', { data: { email, password } })).status()).toBe(
      200,
    );
    const secret = (await (await enrolment.post('/api/admin/totp.php')).json()).secret as string;
    const code = await generate({ secret, epoch: Math.floor(Date.now() / 1000) });
    expect((await enrolment.put('/api/admin/totp.php', { data: { code } })).status()).toBe(200);
    await gotoHydrated(page, '/admin/inbox');
    await expect(page).toHaveURL(/\/admin\/inbox$/);
    await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
    await expect(page.getByTestId('live-status')).toHaveText('Live');
    const waiting = page.getByTestId('inbox').getByRole('listitem');
    await expect(waiting).toHaveCount(2);
    await expect(waiting.first()).toContainText(size.texts[0]);
    await expect(waiting.first()).toContainText('Never paid');
    await expect(waiting.first()).toContainText('Credits:');
    await expect(page.getByText('Shortcut: N or Alt+N')).toBeVisible();
    expect(
      (await pageAxe(page).analyze()).violations.filter((v) =>
        ['serious', 'critical'].includes(v.impact ?? ''),
      ),
    ).toEqual([]);
    await page.screenshot({ path: test.info().outputPath(`inbox-${size.name}.png`), fullPage: true });

    // No page load from here on: a marker on the window survives every step.
    await page.evaluate(() => {
      (window as unknown as { workbenchMarker: string }).workbenchMarker = 'still here';
    });
    await page.keyboard.press('n');
    await expect(page).toHaveURL(/\/admin\/conversations\/\d+$/);
    const firstUrl = page.url();
    await expect(page.getByTestId('history')).toContainText(size.texts[0]);
    const replyBox = page.getByLabel(`Reply as ${first.name}`);
    await expect(replyBox).toBeFocused();
    await expect(page.getByText('Ctrl/⌘+Enter sends and opens the next conversation')).toBeVisible();
    // Alt+T opens the templates; typing narrows them, Enter inserts the chosen one, filled in.
    await page.keyboard.press('Alt+t');
    const picker = page.getByRole('dialog', { name: 'Templates' });
    await expect(picker).toBeVisible();
    await page.keyboard.type(size.templateTitle.slice(0, 4));
    await expect(picker.getByRole('option').first()).toContainText(size.templateTitle);
    expect(
      (await pageAxe(page).analyze()).violations.filter((v) =>
        ['serious', 'critical'].includes(v.impact ?? ''),
      ),
    ).toEqual([]);
    await page.keyboard.press('Enter');
    await expect(picker).toBeHidden();
    await expect(replyBox).toBeFocused();
    await expect(replyBox).toHaveValue(size.reply);
    expect(
      (await pageAxe(page).analyze()).violations.filter((v) =>
        ['serious', 'critical'].includes(v.impact ?? ''),
      ),
    ).toEqual([]);
    await page.keyboard.press('Control+Enter');

    // Sent, and the next conversation is open and claimed, the reply box ready.
    await expect(page).not.toHaveURL(firstUrl);
    await expect(page).toHaveURL(/\/admin\/conversations\/\d+$/);
    await expect(page.getByTestId('history')).toContainText(size.texts[1]);
    await expect(page.getByLabel(`Reply as ${second.name}`)).toBeFocused();
    await expect(page.getByLabel(`Reply as ${second.name}`)).toHaveValue('');
    await expect(page.getByTestId('dossier')).toContainText('Aino');
    await expect(page.getByTestId('dossier')).toContainText(first.name);
    await expect(page.getByTestId('persona')).toContainText('Runs a flower shop');
    await page.screenshot({
      path: `docs/screens/workbench-console-${size.name}.png`,
      fullPage: size.name === 'phone',
    });
    expect(
      await page.evaluate(() => (window as unknown as { workbenchMarker?: string }).workbenchMarker),
    ).toBe('still here');

    // Esc gives it back and returns to the queue, where it waits again, unclaimed.
    await page.keyboard.press('Escape');
    await expect(page).toHaveURL(/\/admin\/inbox$/);
    await expect(page.getByTestId('inbox').getByRole('listitem')).toHaveCount(1);
    await expect(page.getByTestId('inbox')).toContainText(size.texts[1]);
    expect(
      await page.evaluate(() => (window as unknown as { workbenchMarker?: string }).workbenchMarker),
    ).toBe('still here');

    // The member got the reply.
    const chats = await (await member.page.request.get('/api/chats.php')).json();
    const answered = (chats.chats as { profile: { id: number }; conversation: { id: number } }[]).find(
      (chat) => chat.profile.id === first.id,
    );
    const chat = await (
      await member.page.request.get(`/api/chat.php?conversation=${answered!.conversation.id}`)
    ).json();
    expect(chat.messages.at(-1)).toMatchObject({ text: size.reply, mine: false });
    const removed = await admin.delete('/api/admin/templates.php', {
      data: { id: (await template.json()).template.id },
    });
    expect(removed.status()).toBe(200);
    await admin.dispose();
    await enrolment.dispose();
    await context.close();
  });
}

test('an admin assigns an operator to member languages and a claim limit on the staff page', async ({
  browser,
  baseURL,
  playwright,
}) => {
  test.setTimeout(90_000);
  const admin = await demoAdmin(playwright, baseURL);
  const email = e2eEmail();
  const password = `Wb-${randomBytes(12).toString('base64url')}`;
  const created = await admin.post('/api/admin/staff.php', {
    data: { email, name: 'Assigned Aurora', role: 'operator', password, language: 'en' },
  });
  expect(created.status()).toBe(201);
  const operatorId = (await created.json()).staff.id as number;
  const context = await browser.newContext({ baseURL, storageState: await admin.storageState() });
  const page = await context.newPage();
  await gotoHydrated(page, '/admin/staff');
  const row = page.getByRole('row').filter({ hasText: 'Assigned Aurora' });
  await row.getByText('All sites · All languages').click();
  const form = page.getByRole('form', { name: 'Assignment of Assigned Aurora' });
  await form.getByLabel('Danish').check();
  await form.getByLabel('German').check();
  await form.getByLabel('Conversations at once').fill('3');
  expect(
    (await pageAxe(page).analyze()).violations.filter((v) =>
      ['serious', 'critical'].includes(v.impact ?? ''),
    ),
  ).toEqual([]);
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('status')).toHaveText('Assigned Aurora has been updated.');
  const listed = (await (await admin.get('/api/admin/staff.php')).json()).staff as {
    id: number;
    languages: string[];
    max_claims: number | null;
  }[];
  expect(listed.find((entry) => entry.id === operatorId)).toMatchObject({
    languages: ['da', 'de'],
    max_claims: 3,
  });

  // Where the operator is signed in, and signing them out everywhere from there.
  const operator = await playwright.request.newContext({ baseURL });
  const signedIn = await operator.post('/api/admin/session.php', { data: { email, password } });
  expect(signedIn.status()).toBe(200);
  await page
    .getByRole('form', { name: 'Assignment of Assigned Aurora' })
    .getByRole('link', { name: 'Sign-ins' })
    .click();
  await expect(page.getByRole('heading', { name: 'Sign-ins of Assigned Aurora' })).toBeVisible();
  await expect(page.getByTestId('device-list').getByRole('listitem')).toHaveCount(1);
  expect(await seriousViolations(page, 'staff sessions')).toEqual([]);
  await page.screenshot({ path: 'docs/screens/admin-staff-sessions-1366.png' });
  // On a phone the device rows stack and the page keeps to the screen's width.
  const viewport = page.viewportSize();
  await page.setViewportSize({ width: 390, height: 844 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(390);
  expect(await seriousViolations(page, 'staff sessions on a phone')).toEqual([]);
  await page.screenshot({ path: 'docs/screens/admin-staff-sessions-390.png', fullPage: true });
  if (viewport) await page.setViewportSize(viewport);
  await page.getByRole('button', { name: 'Sign out everywhere' }).click();
  await expect(page.getByRole('status')).toHaveText('1 sign-in ended.');
  await expect(page.getByText('Assigned Aurora is not signed in anywhere.')).toBeVisible();
  const after = await operator.get('/api/admin/session.php');
  expect(after.status()).toBe(403);
  expect((await after.json()).error).toBe('staff_required');
  await operator.dispose();
  await admin.dispose();
  await context.close();
});
