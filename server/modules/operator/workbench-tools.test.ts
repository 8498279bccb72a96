import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundles } from '#server/db/schema/catalog.ts';
import { users } from '#server/db/schema/members.ts';
import { orders } from '#server/db/schema/payments.ts';
import { companies, sites } from '#server/db/schema/sites.ts';
import { reports } from '#server/db/schema/social.ts';
import { staffSessions } from '#server/db/schema/staff.ts';
import { activeMember, nextIp, uniqueEmail } from '../../../tests/setup/members.ts';
import {
  freshFictionalProfile,
  signedInStaff,
  staffCookie,
  type TestStaff,
  totpCode,
} from '../../../tests/setup/staff.ts';
import { createTestApp, type TestApp } from '../../../tests/setup/test-app.ts';

/** The operator's tools around a conversation: first sign-in, templates, persona sheets, the dossier. */
describe('operator security, templates, persona sheets and the member dossier', () => {
  let t: TestApp;
  let admin: TestStaff;
  beforeAll(async () => {
    t = await createTestApp();
    admin = await signedInStaff(t.app, 'admin');
  });
  afterAll(() => t.close());

  const call = (cookie: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: { cookie }, ...(payload ? { payload } : {}) });
  const signIn = (payload: Record<string, unknown>) =>
    t.app.inject({ method: 'POST', url: '/api/admin/session.php', remoteAddress: nextIp(), payload });

  /** A member who wrote to a fresh fictional profile; the conversation and both profiles. */
  async function conversationWith(text = 'Hello there') {
    const member = await activeMember(t.app);
    const profile = await freshFictionalProfile(t.app);
    const sent = await call(member.cookie, 'POST', '/api/chat.php', { profile: profile.id, text });
    expect(sent.statusCode, sent.body).toBe(201);
    return { member, profile, conversation: sent.json().message.conversation as number };
  }

  it('lets an operator do nothing but enrol until TOTP is on', async () => {
    const operator = await signedInStaff(t.app, 'operator', { enrol: false });
    for (const [method, url] of [
      ['GET', '/api/admin/inbox.php'],
      ['POST', '/api/admin/next.php'],
      ['GET', '/api/admin/templates.php'],
      ['GET', '/api/admin/operator-stats.php'],
    ] as const) {
      const refused = await call(operator.cookie, method, url, method === 'POST' ? {} : undefined);
      expect(refused.statusCode, url).toBe(403);
      expect(refused.json().error, url).toBe('otp_enrolment_required');
    }
    expect((await call(operator.cookie, 'GET', '/api/admin/session.php')).json().staff).toMatchObject({
      role: 'operator',
      totp_enabled: false,
    });
    const setup = await call(operator.cookie, 'POST', '/api/admin/totp.php');
    const confirmed = await call(operator.cookie, 'PUT', '/api/admin/totp.php', {
      code: await totpCode(setup.json().secret),
    });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect((await call(operator.cookie, 'GET', '/api/admin/inbox.php')).statusCode).toBe(200);
  });

  it('makes an account an admin created set its own password before anything else', async () => {
    const email = uniqueEmail('operator');
    const chosenByAdmin = 'Given-by-admin-4821';
    const created = await call(admin.cookie, 'POST', '/api/admin/staff.php', {
      email,
      name: 'Nadia',
      role: 'operator',
      password: chosenByAdmin,
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json().staff).toMatchObject({ password_change_required: true, totp_enabled: false });

    const login = await signIn({ email, password: chosenByAdmin });
    expect(login.statusCode).toBe(200);
    expect(login.json().staff.password_change_required).toBe(true);
    const cookie = staffCookie(login);
    const second = staffCookie(await signIn({ email, password: chosenByAdmin }));
    for (const [method, url] of [
      ['GET', '/api/admin/inbox.php'],
      ['POST', '/api/admin/totp.php'],
      ['GET', '/api/admin/sessions.php'],
    ] as const) {
      const refused = await call(cookie, method, url);
      expect(refused.statusCode, url).toBe(403);
      expect(refused.json().error, url).toBe('password_change_required');
    }
    // Who is signed in still answers, so the back office can show the right step.
    expect((await call(cookie, 'GET', '/api/admin/session.php')).statusCode).toBe(200);

    const wrong = await call(cookie, 'PUT', '/api/admin/password.php', {
      current: 'not-the-password-1',
      password: 'Own-choice-7731-x',
    });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().fields).toMatchObject({ current: expect.any(String) });
    const same = await call(cookie, 'PUT', '/api/admin/password.php', {
      current: chosenByAdmin,
      password: chosenByAdmin,
    });
    expect(same.statusCode).toBe(422);
    expect(same.json().fields).toMatchObject({ password: expect.any(String) });
    const short = await call(cookie, 'PUT', '/api/admin/password.php', {
      current: chosenByAdmin,
      password: 'short',
    });
    expect(short.statusCode).toBe(422);
    expect(short.json().fields).toMatchObject({ password: expect.any(String) });
    const missing = await call(cookie, 'PUT', '/api/admin/password.php', {});
    expect(missing.statusCode).toBe(422);

    const changed = await call(cookie, 'PUT', '/api/admin/password.php', {
      current: chosenByAdmin,
      password: 'Own-choice-7731-x',
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json().staff.password_change_required).toBe(false);
    // The other session (whoever knew the admin's password) has ended; this one goes on to enrol.
    expect((await call(second, 'GET', '/api/admin/session.php')).json().error).toBe('staff_required');
    const next = await call(cookie, 'GET', '/api/admin/inbox.php');
    expect(next.json().error).toBe('otp_enrolment_required');
    expect((await call(cookie, 'POST', '/api/admin/totp.php')).statusCode).toBe(200);
    expect((await signIn({ email, password: chosenByAdmin })).statusCode).toBe(401);
    expect((await signIn({ email, password: 'Own-choice-7731-x' })).statusCode).toBe(200);
    const sessions = await t.database.db
      .select()
      .from(staffSessions)
      .where(eq(staffSessions.staffId, created.json().staff.id));
    expect(sessions).toHaveLength(2);
  });

  it('keeps templates per site and language: admins write them, operators read those of their assignment', async () => {
    const operator = await signedInStaff(t.app, 'operator');
    const assigned = await call(admin.cookie, 'PUT', '/api/admin/staff.php', {
      id: operator.id,
      languages: ['de'],
    });
    expect(assigned.statusCode).toBe(200);
    const text = 'Hallo {member_name}, hier ist {profile_name} aus der Nähe von {member_city}!';
    const created = await call(admin.cookie, 'POST', '/api/admin/templates.php', {
      language: 'de',
      title: 'Begrüßung',
      text,
    });
    expect(created.statusCode, created.body).toBe(201);
    const template = created.json().template;
    expect(template).toMatchObject({ site: null, language: 'de', title: 'Begrüßung', text });
    const french = await call(admin.cookie, 'POST', '/api/admin/templates.php', {
      language: 'fr',
      title: 'Bonjour',
      text: 'Bonjour {member_name} !',
    });
    expect(french.statusCode).toBe(201);

    // Operators may not write them.
    const refused = await call(operator.cookie, 'POST', '/api/admin/templates.php', {
      language: 'de',
      title: 'Eigenes',
      text: 'Hallo',
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toBe('forbidden');
    expect(
      (await call(operator.cookie, 'PUT', '/api/admin/templates.php', { id: template.id, title: 'X' }))
        .statusCode,
    ).toBe(403);
    expect(
      (await call(operator.cookie, 'DELETE', '/api/admin/templates.php', { id: template.id })).statusCode,
    ).toBe(403);

    // The operator sees the German ones only; a language outside the assignment is 404.
    const listed = (await call(operator.cookie, 'GET', '/api/admin/templates.php')).json().templates;
    expect(listed.map((entry: { id: number }) => entry.id)).toContain(template.id);
    expect(listed.map((entry: { id: number }) => entry.id)).not.toContain(french.json().template.id);
    expect(listed.every((entry: { language: string }) => entry.language === 'de')).toBe(true);
    const outside = await call(operator.cookie, 'GET', '/api/admin/templates.php?language=fr');
    expect(outside.statusCode).toBe(404);
    expect(outside.json().error).toBe('not_found');

    // Bad input: the fields that are wrong, never a 500.
    const bad = await call(admin.cookie, 'POST', '/api/admin/templates.php', {
      language: 'xx',
      title: ' ',
      text: 'a'.repeat(2001),
    });
    expect(bad.statusCode).toBe(422);
    expect(Object.keys(bad.json().fields).sort()).toEqual(['language', 'text', 'title']);
    const unknownSite = await call(admin.cookie, 'POST', '/api/admin/templates.php', {
      site: 999_999,
      language: 'de',
      title: 'Nirgends',
      text: 'Hallo',
    });
    expect(unknownSite.statusCode).toBe(422);
    expect(unknownSite.json().fields).toEqual({ site: expect.any(String) });

    const updated = await call(admin.cookie, 'PUT', '/api/admin/templates.php', {
      id: template.id,
      title: 'Erste Zeile',
    });
    expect(updated.statusCode).toBe(200);
    expect(updated.json().template).toMatchObject({ id: template.id, title: 'Erste Zeile', text });
    expect(
      (await call(admin.cookie, 'PUT', '/api/admin/templates.php', { id: 999_999, title: 'X' })).statusCode,
    ).toBe(404);
    expect(
      (await call(admin.cookie, 'DELETE', '/api/admin/templates.php', { id: template.id })).statusCode,
    ).toBe(200);
    expect(
      (await call(admin.cookie, 'DELETE', '/api/admin/templates.php', { id: template.id })).statusCode,
    ).toBe(404);
    expect(
      (await call(admin.cookie, 'GET', '/api/admin/templates.php?language=de')).json().templates,
    ).not.toContainEqual(expect.objectContaining({ id: template.id }));
  });

  it('keeps a persona sheet per fictional profile, shown in its conversations; 404 for members and other sites', async () => {
    const operator = await signedInStaff(t.app, 'operator');
    const { member, profile, conversation } = await conversationWith();
    const empty = await call(operator.cookie, 'GET', `/api/admin/persona.php?profile=${profile.id}`);
    expect(empty.statusCode).toBe(200);
    expect(empty.json().persona).toEqual({
      profile: profile.id,
      facts: {},
      updated_at: null,
      updated_by: null,
    });

    const written = await call(operator.cookie, 'PUT', '/api/admin/persona.php', {
      profile: profile.id,
      facts: {
        job: 'Nurse, night shifts',
        city: 'Utrecht',
        hobbies: 'Climbing, baking',
        style: 'Short, warm, emoji',
        other: '',
      },
    });
    expect(written.statusCode, written.body).toBe(200);
    expect(written.json().persona).toMatchObject({
      facts: {
        job: 'Nurse, night shifts',
        city: 'Utrecht',
        hobbies: 'Climbing, baking',
        style: 'Short, warm, emoji',
      },
      updated_by: { id: operator.id, name: operator.name },
    });
    expect(written.json().persona.facts).not.toHaveProperty('other');

    await call(operator.cookie, 'POST', '/api/admin/claim.php', { conversation });
    const view = await call(operator.cookie, 'GET', `/api/admin/conversation.php?id=${conversation}`);
    expect(view.json().persona.facts.job).toBe('Nurse, night shifts');

    // A member is no persona; an operator of another site never sees the sheet.
    expect(
      (await call(operator.cookie, 'GET', `/api/admin/persona.php?profile=${member.profileId}`)).statusCode,
    ).toBe(404);
    const [company] = await t.database.db.select({ id: companies.id }).from(companies).limit(1);
    const [siteB] = await t.database.db
      .insert(sites)
      .values({
        domain: `persona-${process.pid}-${Date.now()}.localhost`,
        name: 'Persona B',
        indexTitle: 'Persona B',
        description: '',
        countries: ['NL'],
        supportEmail: 'support@example.com',
        companyId: company!.id,
      })
      .returning({ id: sites.id });
    t.app.deps.sites.invalidate();
    const elsewhere = await signedInStaff(t.app, 'operator');
    const moved = await call(admin.cookie, 'PUT', '/api/admin/staff.php', {
      id: elsewhere.id,
      sites: [siteB!.id],
    });
    expect(moved.statusCode, moved.body).toBe(200);
    const hidden = await call(elsewhere.cookie, 'GET', `/api/admin/persona.php?profile=${profile.id}`);
    expect(hidden.statusCode).toBe(404);
    expect(
      (await call(elsewhere.cookie, 'PUT', '/api/admin/persona.php', { profile: profile.id, facts: {} }))
        .statusCode,
    ).toBe(404);

    const bad = await call(operator.cookie, 'PUT', '/api/admin/persona.php', {
      profile: profile.id,
      facts: { job: 'x'.repeat(1001) },
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().fields).toMatchObject({ 'facts.job': expect.any(String) });
  });

  it('shows the member dossier: seeking, region, photos, spend, last seen, other conversations with who answered, reports', async () => {
    const operator = await signedInStaff(t.app, 'operator');
    const first = await conversationWith('First one');
    // The same member writes to a second fictional profile; the operator answers the first.
    const otherProfile = await freshFictionalProfile(t.app);
    const second = await call(first.member.cookie, 'POST', '/api/chat.php', {
      profile: otherProfile.id,
      text: 'Second one',
    });
    expect(second.statusCode).toBe(201);
    const secondConversation = second.json().message.conversation as number;
    expect(
      (await call(operator.cookie, 'POST', '/api/admin/claim.php', { conversation: first.conversation }))
        .statusCode,
    ).toBe(200);
    const replied = await call(operator.cookie, 'POST', '/api/admin/reply.php', {
      conversation: first.conversation,
      text: 'Hi back',
    });
    expect(replied.statusCode, replied.body).toBe(201);

    const [user] = await t.app.deps.db.select().from(users).where(eq(users.id, first.member.userId));
    const [bundle] = await t.app.deps.db.select().from(bundles).limit(1);
    const bought = new Date(Date.now() - 3 * 86_400_000);
    for (const [cents, status, at] of [
      [1499, 'completed', new Date(Date.now() - 10 * 86_400_000)],
      [2999, 'completed', bought],
      [9999, 'failed', new Date()],
    ] as const) {
      await t.app.deps.db.insert(orders).values({
        userId: first.member.userId,
        siteId: user!.siteId,
        bundleId: bundle!.id,
        credits: 10,
        amountCents: cents,
        listPriceCents: cents,
        currency: 'EUR',
        country: 'NL',
        paymentMethod: 'test',
        provider: 'test',
        status,
        createdAt: at,
      });
    }
    const reporter = await activeMember(t.app);
    await t.app.deps.db.insert(reports).values({
      reporterUserId: reporter.userId,
      profileId: first.member.profileId,
      reason: 'spam',
      createdAt: new Date(),
    });

    const view = await call(operator.cookie, 'GET', `/api/admin/conversation.php?id=${secondConversation}`);
    expect(view.statusCode, view.body).toBe(200);
    const dossier = view.json().member.dossier;
    expect(dossier).toMatchObject({
      spent_cents_total: 1499 + 2999,
      last_purchase_at: bought.toISOString(),
      online: expect.any(Boolean),
      reports: [{ reason: 'spam', at: expect.any(String) }],
      conversations: [
        {
          id: first.conversation,
          profile: { id: first.profile.id, name: first.profile.name },
          last_message_at: expect.any(String),
          answered_by: { id: operator.id, name: operator.name },
        },
      ],
    });
    expect(dossier.last_seen_at).toMatch(/T\d\d:\d\d/);
    expect(dossier).toHaveProperty('seeking');
    expect(dossier).toHaveProperty('countryregion');
    expect(Array.isArray(dossier.photos)).toBe(true);
    // The conversation itself is not among the "other" ones.
    expect(dossier.conversations.map((entry: { id: number }) => entry.id)).not.toContain(secondConversation);
  });

  it('files notes in a category and refuses an unknown one', async () => {
    const operator = await signedInStaff(t.app, 'operator');
    const { conversation } = await conversationWith();
    await call(operator.cookie, 'POST', '/api/admin/claim.php', { conversation });
    const warning = await call(operator.cookie, 'POST', '/api/admin/notes.php', {
      conversation,
      about: 'member',
      category: 'warnings',
      text: 'Asks for phone numbers',
    });
    expect(warning.statusCode).toBe(201);
    expect(warning.json().note).toMatchObject({ category: 'warnings', about: 'member' });
    const plain = await call(operator.cookie, 'POST', '/api/admin/notes.php', {
      conversation,
      about: 'profile',
      text: 'Has a cat called Miso',
    });
    expect(plain.json().note.category).toBe('facts');
    const bad = await call(operator.cookie, 'POST', '/api/admin/notes.php', {
      conversation,
      about: 'member',
      category: 'gossip',
      text: 'x',
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().fields).toMatchObject({ category: expect.any(String) });
    const view = await call(operator.cookie, 'GET', `/api/admin/conversation.php?id=${conversation}`);
    expect(
      view
        .json()
        .notes.map((note: { category: string }) => note.category)
        .sort(),
    ).toEqual(['facts', 'warnings']);
  });
});
