import { and, eq, inArray } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '#server/db/schema/chats.ts';
import { users } from '#server/db/schema/members.ts';
import { photos } from '#server/db/schema/photos.ts';
import { staffAudit } from '#server/db/schema/staff.ts';
import { activeMember, grantCredits, nextIp } from '../../../tests/setup/members.ts';
import { signedInStaff, type TestStaff } from '../../../tests/setup/staff.ts';
import { createTestApp, type TestApp } from '../../../tests/setup/test-app.ts';

const jpeg = (colour: string) =>
  sharp({ create: { width: 300, height: 400, channels: 3, background: colour } })
    .jpeg()
    .toBuffer();

function multipart(file: Buffer, fields: Record<string, string> = {}) {
  const boundary = `----fictional${Date.now()}`;
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    parts.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
    );
  }
  parts.push(
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="p.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`,
    ),
    file,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  );
  return { payload: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

const profileBody = (extra: Record<string, unknown> = {}) => ({
  site: 1,
  name: 'Sanne',
  gender: 'female',
  seeking: 'male',
  sexuality: 'hetero',
  date_of_birth: '1994-03-12',
  country: 'NL',
  countryregion: 'NH',
  body_type: 'slim',
  hair: 'blonde',
  eye_colour: 'blue',
  relationship_status: 'single',
  tattoos: 'some',
  interests: ['music', 'travelling'],
  about: 'Houd van zeilen en koffie.',
  ...extra,
});

describe('fictional profiles in the back office', () => {
  let t: TestApp;
  let admin: TestStaff;
  let moderator: TestStaff;
  let operator: TestStaff;
  beforeAll(async () => {
    t = await createTestApp();
    admin = await signedInStaff(t.app, 'admin');
    moderator = await signedInStaff(t.app, 'moderator');
    operator = await signedInStaff(t.app, 'operator');
  });
  afterAll(() => t.close());

  const call = (
    who: TestStaff,
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    payload?: Record<string, unknown>,
  ) =>
    t.app.inject({
      method,
      url,
      remoteAddress: nextIp(),
      headers: { cookie: who.cookie },
      ...(payload ? { payload } : {}),
    });
  const create = async (who: TestStaff, extra: Record<string, unknown> = {}) => {
    const response = await call(who, 'POST', '/api/admin/profiles.php', profileBody(extra));
    expect(response.statusCode, response.body).toBe(201);
    return response.json().profile as { id: number; name: string; status: string };
  };
  const upload = async (
    who: TestStaff,
    profile: number,
    file: Buffer,
    fields: Record<string, string> = {},
  ) => {
    const { payload, contentType } = multipart(file, fields);
    return t.app.inject({
      method: 'POST',
      url: `/api/admin/photos.php?profile=${profile}`,
      headers: { cookie: who.cookie, 'content-type': contentType },
      payload,
    });
  };
  const audits = (object: string) =>
    t.database.db.select().from(staffAudit).where(eq(staffAudit.object, object));

  it('refuses operators (403 forbidden); moderators and admins may manage fictional profiles', async () => {
    const mine = await create(moderator);
    for (const [method, url, payload] of [
      ['GET', '/api/admin/profiles.php', undefined],
      ['GET', `/api/admin/profile.php?id=${mine.id}`, undefined],
      ['POST', '/api/admin/profiles.php', profileBody()],
      ['PUT', '/api/admin/profiles.php', { id: mine.id, name: 'Hacked' }],
      ['POST', '/api/admin/profiles-bulk.php', { action: 'disable', profiles: [mine.id] }],
      ['DELETE', '/api/admin/profile-photo.php', { profile: mine.id, photo: 1 }],
    ] as const) {
      const response = await call(operator, method, url, payload);
      expect(response.statusCode, `${method} ${url}`).toBe(403);
      expect(response.json().error).toBe('forbidden');
    }
    const photo = await upload(operator, mine.id, await jpeg('#aa0000'));
    expect(photo.statusCode).toBe(403);
    expect((await call(admin, 'GET', `/api/admin/profile.php?id=${mine.id}`)).json().profile.name).toBe(
      'Sanne',
    );
  });

  it('creates a fictional profile with every attribute, lists it with filters, audited', async () => {
    const profile = await create(admin, { name: 'Maud Filtertest' });
    expect(profile).toMatchObject({
      fictional: true,
      status: 'active',
      gender: 'female',
      seeking: 'male',
      body_type: 'slim',
      hair: 'blonde',
      eye_colour: 'blue',
      relationship_status: 'single',
      tattoos: 'some',
      interests: ['music', 'travelling'],
      about: 'Houd van zeilen en koffie.',
      countryregion: 'NH',
      birthdate: '1994-03-12',
      site: { id: 1 },
      stats: { conversations: 0, messages_received: 0, replies: 0, revenue_credits: 0 },
      photos: [],
    });
    const found = await call(
      admin,
      'GET',
      '/api/admin/profiles.php?q=Filtertest&site=1&gender=female&country=NL',
    );
    expect(found.json()).toMatchObject({ total: 1, profiles: [{ id: profile.id, name: 'Maud Filtertest' }] });
    const byId = await call(admin, 'GET', `/api/admin/profiles.php?q=${profile.id}`);
    expect(byId.json().profiles.map((entry: { id: number }) => entry.id)).toContain(profile.id);
    const none = await call(admin, 'GET', '/api/admin/profiles.php?q=Filtertest&gender=male');
    expect(none.json().total).toBe(0);
    const all = (await call(admin, 'GET', '/api/admin/profiles.php')).json();
    expect(all.profiles.every((entry: { fictional: boolean }) => entry.fictional)).toBe(true);
    expect(await audits(`profile:${profile.id}`)).toEqual([
      expect.objectContaining({ action: 'profile.create', staffId: admin.id }),
    ]);
  });

  it('answers 422 at each wrong field', async () => {
    const wrong = await call(admin, 'POST', '/api/admin/profiles.php', {
      site: 1,
      name: 'S',
      gender: 'robot',
      date_of_birth: '12-03-1994',
      country: 'NL',
      hair: 'purple',
      interests: ['knitting'],
    });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().fields).toMatchObject({
      name: 'too_short',
      gender: 'invalid',
      date_of_birth: 'invalid_date',
      hair: 'invalid',
      'interests.0': 'invalid',
    });
    const rules = await call(
      admin,
      'POST',
      '/api/admin/profiles.php',
      profileBody({ country: 'FR', countryregion: 'XX-1', date_of_birth: '2015-01-01' }),
    );
    expect(rules.json().fields).toEqual({
      country: 'not_served',
      countryregion: 'invalid',
      date_of_birth: 'out_of_range',
    });
    const unknownSite = await call(admin, 'POST', '/api/admin/profiles.php', profileBody({ site: 9999 }));
    expect(unknownSite.json().fields).toEqual({ site: 'unknown' });
  });

  it('edits and disables a profile; disabled profiles are no longer shown to members', async () => {
    const profile = await create(admin, { name: 'Evi' });
    const member = await activeMember(t.app);
    const view = () =>
      t.app.inject({ url: `/api/member.php?id=${profile.id}`, headers: { cookie: member.cookie } });
    expect((await view()).statusCode).toBe(200);
    const edited = await call(moderator, 'PUT', '/api/admin/profiles.php', {
      id: profile.id,
      about: 'Nieuw',
      country: 'BE',
      interests: ['wine'],
    });
    expect(edited.statusCode).toBe(200);
    // A new country drops the region of the old one.
    expect(edited.json().profile).toMatchObject({
      about: 'Nieuw',
      country: 'BE',
      countryregion: null,
      interests: ['wine'],
    });
    const disabled = await call(moderator, 'PUT', '/api/admin/profiles.php', {
      id: profile.id,
      status: 'disabled',
    });
    expect(disabled.json().profile.status).toBe('disabled');
    expect((await view()).json().profile?.status ?? 'gone').not.toBe('active');
    const actions = (await audits(`profile:${profile.id}`)).map((entry) => entry.action);
    expect(actions).toEqual(['profile.create', 'profile.update', 'profile.disable']);
    // A member's profile is never edited through these calls.
    const notFictional = await call(admin, 'PUT', '/api/admin/profiles.php', {
      id: member.profileId,
      name: 'Nope',
    });
    expect(notFictional.statusCode).toBe(404);
  });

  it('disables and moves many profiles at once, never a member’s, one audit entry each', async () => {
    const a = await create(admin, { name: 'Bulk A' });
    const b = await create(admin, { name: 'Bulk B' });
    const member = await activeMember(t.app);
    const disabled = await call(admin, 'POST', '/api/admin/profiles-bulk.php', {
      action: 'disable',
      profiles: [a.id, b.id, member.profileId],
    });
    expect(disabled.json()).toEqual({ updated: 2 });
    const listed = (await call(admin, 'GET', '/api/admin/profiles.php?q=Bulk&status=disabled')).json();
    expect(listed.profiles.map((entry: { id: number }) => entry.id).sort()).toEqual([a.id, b.id].sort());
    const moved = await call(admin, 'POST', '/api/admin/profiles-bulk.php', {
      action: 'move',
      profiles: [a.id, b.id, member.profileId],
      site: 2,
    });
    expect(moved.json()).toEqual({ updated: 2 });
    const onSite2 = (await call(admin, 'GET', '/api/admin/profiles.php?q=Bulk&site=2')).json();
    expect(onSite2.total).toBe(2);
    const [memberUser] = await t.database.db.select().from(users).where(eq(users.id, member.userId));
    expect(memberUser?.siteId).toBe(1);
    expect((await audits(`profile:${a.id}`)).map((entry) => entry.action)).toEqual([
      'profile.create',
      'profile.disable',
      'profile.move',
    ]);
    const noSite = await call(admin, 'POST', '/api/admin/profiles-bulk.php', {
      action: 'move',
      profiles: [a.id],
      site: 999,
    });
    expect(noSite.statusCode).toBe(422);
  });

  it('adds photos: the first free, then premium ones (blurred for free members), or a new free main photo', async () => {
    const profile = await create(admin, { name: 'Fotogeniek' });
    const premiumFirst = await upload(admin, profile.id, await jpeg('#00aa00'), { premium: '1' });
    expect(premiumFirst.statusCode).toBe(422);
    expect(premiumFirst.json().fields).toEqual({ premium: 'needs_free_photo' });
    const first = await upload(admin, profile.id, await jpeg('#aa0000'));
    expect(first.statusCode).toBe(201);
    expect(first.json().photo.premium).toBe(false);
    // Originals are private: a signed, expiring link (docs/decisions/008-private-media.md).
    expect(first.json().photo.filename).toMatch(/^\/media\/private\/[A-Za-z0-9_-]+\.webp\?e=\d+&s=/);
    const second = await upload(moderator, profile.id, await jpeg('#0000aa'), { premium: 'true' });
    expect(second.json().photo.premium).toBe(true);
    const main = await upload(admin, profile.id, await jpeg('#aaaa00'), { premium: '0' });
    expect(main.json().photo.premium).toBe(false);
    const detail = (await call(admin, 'GET', `/api/admin/profile.php?id=${profile.id}`)).json().profile;
    expect(detail.photos.map((photo: { id: number }) => photo.id)).toEqual([
      main.json().photo.id,
      first.json().photo.id,
      second.json().photo.id,
    ]);
    // A free member sees the main photo and blurred copies of the premium ones.
    const member = await activeMember(t.app);
    const seen = (
      await t.app.inject({ url: `/api/member.php?id=${profile.id}`, headers: { cookie: member.cookie } })
    ).json();
    expect(seen.photos.map((photo: { locked: boolean }) => photo.locked)).toEqual([false, true, true]);
    expect(seen.photos[1].filename).toMatch(/^\/media\/public\//);
    const removed = await call(admin, 'DELETE', '/api/admin/profile-photo.php', {
      profile: profile.id,
      photo: main.json().photo.id,
    });
    expect(removed.statusCode).toBe(200);
    const rows = await t.database.db.select().from(photos).where(eq(photos.profileId, profile.id));
    expect(rows.map((row) => [row.id, row.position]).sort((x, y) => x[1]! - y[1]!)).toEqual([
      [first.json().photo.id, 0],
      [second.json().photo.id, 1],
    ]);
    const actions = (await audits(`profile:${profile.id}`)).map((entry) => entry.action);
    expect(actions.filter((action) => action === 'profile.photo_add')).toHaveLength(3);
    expect(actions).toContain('profile.photo_remove');
    const broken = await upload(admin, profile.id, Buffer.from('no image'));
    expect(broken.json().error).toBe('unsupported_image');
  });

  it('adds photos uploaded at once in distinct positions', async () => {
    const profile = await create(admin, { name: 'Parallel' });
    expect((await upload(admin, profile.id, await jpeg('#101010'))).statusCode).toBe(201);
    const files = await Promise.all(['#202020', '#303030', '#404040', '#505050'].map(jpeg));
    const answers = await Promise.all(files.map((file) => upload(admin, profile.id, file)));
    expect(answers.map((answer) => answer.statusCode)).toEqual([201, 201, 201, 201]);
    const rows = await t.database.db.select().from(photos).where(eq(photos.profileId, profile.id));
    expect(rows.map((row) => row.position).sort()).toEqual([0, 1, 2, 3, 4]);
  });

  it('shows conversations, messages received, replies and the credits paid for messages to it', async () => {
    const profile = await create(admin, { name: 'Statistiek' });
    const writers = [await activeMember(t.app), await activeMember(t.app)];
    for (const writer of writers) {
      await grantCredits(t.app, writer.userId, 50, true);
      for (const text of ['Hoi!', 'Hoe gaat het?', 'Zin in een date?', 'Nog steeds?', 'Hallo?']) {
        const sent = await t.app.inject({
          method: 'POST',
          url: '/api/chat.php',
          remoteAddress: nextIp(),
          headers: { cookie: writer.cookie },
          payload: { profile: profile.id, text },
        });
        expect(sent.statusCode, sent.body).toBe(201);
      }
    }
    const operatorAccount = await signedInStaff(t.app, 'operator');
    const inbox = (
      await t.app.inject({ url: '/api/admin/inbox.php', headers: { cookie: operatorAccount.cookie } })
    )
      .json()
      .conversations.filter((entry: { profile: { id: number } }) => entry.profile.id === profile.id);
    const conversation = inbox[0].id as number;
    await call(operatorAccount, 'POST', '/api/admin/claim.php', { conversation });
    const reply = await call(operatorAccount, 'POST', '/api/admin/reply.php', {
      conversation,
      text: 'Hoi terug!',
    });
    expect(reply.statusCode).toBe(201);
    const paid = await t.database.db
      .select({ credits: messages.credits })
      .from(messages)
      .where(
        and(
          inArray(
            messages.conversationId,
            inbox.map((entry: { id: number }) => entry.id),
          ),
        ),
      );
    const credits = paid.reduce((total, row) => total + row.credits, 0);
    expect(credits).toBeGreaterThan(0);
    const stats = (await call(admin, 'GET', `/api/admin/profile.php?id=${profile.id}`)).json().profile.stats;
    expect(stats).toEqual({ conversations: 2, messages_received: 10, replies: 1, revenue_credits: credits });
    const listed = (await call(admin, 'GET', '/api/admin/profiles.php?q=Statistiek')).json().profiles[0];
    expect(listed.stats).toEqual(stats);
  });
});
