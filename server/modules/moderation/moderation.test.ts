import type { AddressInfo } from 'node:net';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { creditLedger } from '#server/db/schema/credits.ts';
import { mailJobs } from '#server/db/schema/mail.ts';
import { users } from '#server/db/schema/members.ts';
import { photos } from '#server/db/schema/photos.ts';
import { staffAudit } from '#server/db/schema/staff.ts';
import {
  activeMember,
  goodPassword,
  grantCredits,
  nextIp,
  signupMember,
} from '../../../tests/setup/members.ts';
import { freshFictionalProfile, signedInStaff, type TestStaff } from '../../../tests/setup/staff.ts';
import { createTestApp, type TestApp } from '../../../tests/setup/test-app.ts';
import { testPooler } from '../../../tests/setup/test-database.ts';

const boundary = '----moderation-test-boundary';
async function uploadPhoto(app: FastifyInstance, cookie: string, seed = 0): Promise<number> {
  const file = await sharp({
    create: { width: 320, height: 240, channels: 3, background: { r: 40 + seed, g: 90, b: 160 } },
  })
    .jpeg()
    .toBuffer();
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="me.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`,
    ),
    file,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const response = await app.inject({
    method: 'POST',
    url: '/api/photos.php',
    headers: { cookie, 'content-type': `multipart/form-data; boundary=${boundary}` },
    payload,
  });
  if (response.statusCode !== 201) throw new Error(`upload failed: ${response.statusCode} ${response.body}`);
  return response.json().photo.id as number;
}

const memberLogin = (app: FastifyInstance, email: string) =>
  app.inject({
    method: 'POST',
    url: '/api/user.php',
    remoteAddress: nextIp(),
    payload: { email, password: goodPassword },
  });

const whoAmI = async (app: FastifyInstance, cookie: string) =>
  (await app.inject({ url: '/api/user.php', headers: { cookie } })).json().user as { id: number } | null;

describe('back office: members and moderation', () => {
  let t: TestApp;
  let operator: TestStaff;
  let moderator: TestStaff;
  let admin: TestStaff;
  beforeAll(async () => {
    t = await createTestApp();
    operator = await signedInStaff(t.app, 'operator');
    moderator = await signedInStaff(t.app, 'moderator', { name: 'Mona Moderator' });
    admin = await signedInStaff(t.app, 'admin', { name: 'Ada Admin' });
  });
  afterAll(() => t.close());

  const call = (who: TestStaff, method: 'GET' | 'PUT' | 'POST' | 'DELETE', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: { cookie: who.cookie }, ...(payload ? { payload } : {}) });

  const auditOf = async (action: string, object: string) =>
    t.database.db
      .select()
      .from(staffAudit)
      .where(and(eq(staffAudit.action, action), eq(staffAudit.object, object)));

  const ledgerOf = (userId: number) =>
    t.database.db.select().from(creditLedger).where(eq(creditLedger.userId, userId));

  /** Signup credits (a site setting) spent, so that balances in a test start at zero. */
  const emptyBalance = async (userId: number) => {
    const [row] = await t.database.db.select().from(users).where(eq(users.id, userId));
    if (row!.credits > 0) await grantCredits(t.app, userId, -row!.credits);
  };

  const mailsTo = (email: string) => t.database.db.select().from(mailJobs).where(eq(mailJobs.to, email));

  it('refuses every call to a role that lacks the right, and members and visitors altogether', async () => {
    const member = await activeMember(t.app);
    const start = (await ledgerOf(member.userId)).length;
    const moderatorOnly: [method: 'GET' | 'PUT' | 'POST' | 'DELETE', url: string, payload?: object][] = [
      ['GET', '/api/admin/members.php'],
      ['GET', `/api/admin/member.php?id=${member.profileId}`],
      ['PUT', '/api/admin/member.php', { id: member.profileId, status: 'banned', reason: 'spam' }],
      ['DELETE', '/api/admin/member-photo.php', { photo: 1, reason: 'nudity' }],
      ['POST', '/api/admin/member-activation.php', { member: member.profileId, reason: 'asked' }],
      ['POST', '/api/admin/member-deletion.php', { member: member.profileId, reason: 'asked' }],
      ['GET', '/api/admin/reports.php'],
      ['PUT', '/api/admin/reports.php', { id: 1, action: 'dismiss', reason: 'fine' }],
      ['GET', '/api/admin/photo-queue.php'],
      ['PUT', '/api/admin/photo-queue.php', { photo: 1, decision: 'approve' }],
    ];
    const adminOnly: typeof moderatorOnly = [
      ['POST', '/api/admin/credits.php', { member: member.profileId, amount: 5, reason: 'goodwill' }],
      ['POST', '/api/admin/refund.php', { order: 1, reason: 'asked' }],
      ['GET', `/api/admin/member-export.php?id=${member.profileId}`],
    ];
    for (const [method, url, payload] of [...moderatorOnly, ...adminOnly]) {
      const response = await call(operator, method, url, payload);
      expect(response.statusCode, `${method} ${url}`).toBe(403);
      expect(response.json().error).toBe('forbidden');
      const asMember = await t.app.inject({
        method,
        url,
        headers: { cookie: member.cookie },
        ...(payload ? { payload } : {}),
      });
      expect(asMember.json().error, `${method} ${url} as member`).toBe('staff_required');
    }
    for (const [method, url, payload] of adminOnly) {
      const response = await call(moderator, method, url, payload);
      expect(response.statusCode, `${method} ${url}`).toBe(403);
      expect(response.json().error).toBe('forbidden');
    }
    // Nothing happened: the member is neither banned nor richer.
    const [row] = await t.database.db.select().from(users).where(eq(users.id, member.userId));
    expect(row!.status).toBe('active');
    expect(await ledgerOf(member.userId)).toHaveLength(start);
  });

  it('finds real members by e-mail, name and id, filtered by site and status, never fictional profiles', async () => {
    const member = await activeMember(t.app, { name: 'Quirinus' });
    const search = async (query: string) =>
      (await call(moderator, 'GET', `/api/admin/members.php?${query}`)).json();
    const byMail = await search(`q=${encodeURIComponent(member.email)}`);
    expect(byMail.total).toBe(1);
    expect(byMail.members[0]).toMatchObject({
      profile: { id: member.profileId, name: 'Quirinus' },
      user: { id: member.userId, email: member.email, status: 'active' },
      reports_about: 0,
    });
    expect(
      (await search('q=quirin')).members.map((m: { profile: { id: number } }) => m.profile.id),
    ).toContain(member.profileId);
    expect((await search(`q=${member.profileId}`)).members[0].profile.id).toBe(member.profileId);
    const site = byMail.members[0].user.site.id as number;
    expect((await search(`q=quirin&site=${site}&status=active`)).total).toBeGreaterThan(0);
    expect((await search(`q=quirin&status=banned`)).total).toBe(0);
    // Fictional profiles are not members: neither by id nor by name.
    const fictional = await freshFictionalProfile(t.app);
    expect(
      (await search(`q=${fictional.id}`)).members.map((m: { profile: { id: number } }) => m.profile.id),
    ).not.toContain(fictional.id);
    expect(
      (await search(`q=${encodeURIComponent(fictional.name)}`)).members.map(
        (m: { profile: { id: number } }) => m.profile.id,
      ),
    ).not.toContain(fictional.id);
  });

  it('bans a member: sessions end, sign-in gets 403 banned, the profile leaves search, likes and chats; unban restores', async () => {
    const bad = await activeMember(t.app, { name: 'Brutus' });
    const other = await activeMember(t.app, { name: 'Cornelia' });
    await grantCredits(t.app, bad.userId, 50, true);
    await grantCredits(t.app, other.userId, 50, true);
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/api/chat.php',
          headers: { cookie: bad.cookie },
          payload: { profile: other.profileId, text: 'Hello there' },
        })
      ).statusCode,
    ).toBe(201);
    await t.app.inject({
      method: 'POST',
      url: '/api/like.php',
      headers: { cookie: bad.cookie },
      payload: { profile: other.profileId },
    });
    const chatsOfOther = async () =>
      (await t.app.inject({ url: '/api/chats.php', headers: { cookie: other.cookie } })).json();
    const likesOfOther = async () =>
      (await t.app.inject({ url: '/api/likes.php', headers: { cookie: other.cookie } })).json();
    expect(JSON.stringify(await chatsOfOther())).toContain(`"id":${bad.profileId}`);
    expect(JSON.stringify(await likesOfOther())).toContain(`"id":${bad.profileId}`);

    const ban = await call(moderator, 'PUT', '/api/admin/member.php', {
      id: bad.profileId,
      status: 'banned',
      reason: 'scam messages',
    });
    expect(ban.statusCode).toBe(200);
    expect(ban.json()).toEqual({ user: { id: bad.userId, status: 'banned' } });

    expect(await whoAmI(t.app, bad.cookie)).toBeNull();
    const login = await memberLogin(t.app, bad.email);
    expect(login.statusCode).toBe(403);
    expect(login.json().error).toBe('banned');
    // A wrong password learns nothing about the ban.
    const wrong = await t.app.inject({
      method: 'POST',
      url: '/api/user.php',
      remoteAddress: nextIp(),
      payload: { email: bad.email, password: 'not-the-Password-9' },
    });
    expect(wrong.json().error).toBe('login_failed');

    expect(JSON.stringify(await chatsOfOther())).not.toContain(`"id":${bad.profileId}`);
    expect(JSON.stringify(await likesOfOther())).not.toContain(`"id":${bad.profileId}`);
    const view = await t.app.inject({
      url: `/api/member.php?id=${bad.profileId}`,
      headers: { cookie: other.cookie },
    });
    expect(view.statusCode).toBe(404);
    const search = (
      await t.app.inject({ url: '/api/search.php?page=1', headers: { cookie: other.cookie } })
    ).json();
    expect(JSON.stringify(search)).not.toContain(`"id":${bad.profileId},`);
    expect(await auditOf('member.ban', `profile:${bad.profileId}`)).toHaveLength(1);
    expect((await auditOf('member.ban', `profile:${bad.profileId}`))[0]!.detail).toEqual({
      reason: 'scam messages',
    });

    const unban = await call(moderator, 'PUT', '/api/admin/member.php', {
      id: bad.profileId,
      status: 'active',
      reason: 'appeal accepted',
    });
    expect(unban.json()).toEqual({ user: { id: bad.userId, status: 'active' } });
    expect((await memberLogin(t.app, bad.email)).statusCode).toBe(200);
    expect(JSON.stringify(await chatsOfOther())).toContain(`"id":${bad.profileId}`);
    expect(await auditOf('member.unban', `profile:${bad.profileId}`)).toHaveLength(1);
  });

  it('requires a reason for every action', async () => {
    const member = await activeMember(t.app);
    const response = await call(moderator, 'PUT', '/api/admin/member.php', {
      id: member.profileId,
      status: 'banned',
      reason: '  ',
    });
    expect(response.statusCode).toBe(422);
    const credits = await call(admin, 'POST', '/api/admin/credits.php', {
      member: member.profileId,
      amount: 5,
    });
    expect(credits.statusCode).toBe(422);
  });

  it('books a credit correction in the ledger with the staff member and reason, never below zero', async () => {
    const member = await activeMember(t.app);
    await emptyBalance(member.userId);
    const add = await call(admin, 'POST', '/api/admin/credits.php', {
      member: member.profileId,
      amount: 30,
      reason: 'goodwill after outage',
    });
    expect(add.json()).toEqual({ credits: 30 });
    const overdraw = await call(admin, 'POST', '/api/admin/credits.php', {
      member: member.profileId,
      amount: -31,
      reason: 'too much',
    });
    expect(overdraw.statusCode).toBe(422);
    expect(overdraw.json().fields).toEqual({ amount: 'negative_balance' });
    const take = await call(admin, 'POST', '/api/admin/credits.php', {
      member: member.profileId,
      amount: -10,
      reason: 'double booking',
    });
    expect(take.json()).toEqual({ credits: 20 });
    const ledger = (await ledgerOf(member.userId)).filter((row) => row.staffId !== null);
    expect(ledger.map((row) => [row.delta, row.balanceAfter, row.staffId, row.note])).toEqual([
      [30, 30, admin.id, 'goodwill after outage'],
      [-10, 20, admin.id, 'double booking'],
    ]);
    const detail = (await call(moderator, 'GET', `/api/admin/member.php?id=${member.profileId}`)).json();
    expect(detail.ledger[0]).toMatchObject({
      delta: -10,
      reason: 'admin',
      staff: { id: admin.id, name: 'Ada Admin' },
      note: 'double booking',
    });
    expect(await auditOf('member.credits', `profile:${member.profileId}`)).toHaveLength(2);
    expect(await auditOf('member.read', `profile:${member.profileId}`)).toHaveLength(1);
  });

  it('never overdraws under parallel negative corrections', async () => {
    const member = await activeMember(t.app);
    await emptyBalance(member.userId);
    await call(admin, 'POST', '/api/admin/credits.php', {
      member: member.profileId,
      amount: 50,
      reason: 'x',
    });
    const results = await Promise.all(
      Array.from({ length: 6 }, () =>
        call(admin, 'POST', '/api/admin/credits.php', { member: member.profileId, amount: -20, reason: 'y' }),
      ),
    );
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(2);
    expect(results.filter((r) => r.statusCode === 422)).toHaveLength(4);
    const [row] = await t.database.db.select().from(users).where(eq(users.id, member.userId));
    expect(row!.credits).toBe(10);
    const ledger = await ledgerOf(member.userId);
    expect(ledger.every((entry) => entry.balanceAfter >= 0)).toBe(true);
    expect(ledger.reduce((sum, entry) => sum + entry.delta, 0)).toBe(10);
    expect(ledger.filter((entry) => entry.note === 'y')).toHaveLength(2);
  });

  it('refunds an order through the provider; the ledger reverses its credits once, however often the webhook repeats', async () => {
    const member = await activeMember(t.app);
    await emptyBalance(member.userId);
    const bundles = (
      await t.app.inject({ url: '/api/bundles.php', headers: { cookie: member.cookie } })
    ).json();
    const ordered = await t.app.inject({
      method: 'POST',
      url: '/api/order.php',
      headers: { cookie: member.cookie },
      payload: { bundle: bundles.bundles[0].id, paymentmethod: bundles.paymentmethods[0] },
    });
    const { order, checkout_url } = ordered.json();
    const payment = (checkout_url as string).split('/').at(-1)!;
    await t.app.inject({
      method: 'POST',
      url: '/api/test-payment.php',
      headers: { cookie: member.cookie },
      payload: { payment, status: 'paid' },
    });
    expect((await whoAmI(t.app, member.cookie)) as unknown).toMatchObject({ credits: order.credits });

    const refund = await call(admin, 'POST', '/api/admin/refund.php', {
      order: order.id,
      reason: 'asked within 14 days',
    });
    expect(refund.statusCode).toBe(200);
    expect(refund.json()).toEqual({ order: { id: order.id, status: 'refunded' }, credits: 0 });
    await Promise.all(
      Array.from({ length: 4 }, () =>
        t.app.inject({
          method: 'POST',
          url: '/api/payment-webhook.php',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          payload: `id=${payment}`,
        }),
      ),
    );
    const ledger = await ledgerOf(member.userId);
    expect(ledger.filter((row) => row.reason === 'refund').map((row) => row.delta)).toEqual([-order.credits]);
    expect((await whoAmI(t.app, member.cookie)) as unknown).toMatchObject({ credits: 0 });
    const again = await call(admin, 'POST', '/api/admin/refund.php', { order: order.id, reason: 'again' });
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toBe('refund_impossible');
    expect(await auditOf('order.refund', `order:${order.id}`)).toHaveLength(1);
  });

  it('queues member reports open first with the reported message; warn mails the member in their language; handled once', async () => {
    const offender = await activeMember(t.app, { name: 'Ottokar' });
    const reporter = await activeMember(t.app, { name: 'Rita' });
    await t.database.db.update(users).set({ language: 'de' }).where(eq(users.id, offender.userId));
    await grantCredits(t.app, offender.userId, 20, true);
    const sent = await t.app.inject({
      method: 'POST',
      url: '/api/chat.php',
      headers: { cookie: offender.cookie },
      payload: { profile: reporter.profileId, text: 'Send me money on this account' },
    });
    const messageId = sent.json().message.id as number;
    const reported = await t.app.inject({
      method: 'POST',
      url: '/api/report.php',
      headers: { cookie: reporter.cookie },
      payload: { message: messageId, reason: 'scam', text: 'asks for money' },
    });
    expect(reported.statusCode).toBe(200);
    await t.app.inject({
      method: 'POST',
      url: '/api/report.php',
      headers: { cookie: reporter.cookie },
      payload: { profile: offender.profileId, reason: 'spam' },
    });

    const queue = (await call(moderator, 'GET', '/api/admin/reports.php?status=open')).json().reports;
    const mine = queue.filter(
      (r: { reported: { profile_id: number } | null }) => r.reported?.profile_id === offender.profileId,
    );
    expect(mine).toHaveLength(2);
    const messageReport = mine.find((r: { evidence: unknown }) => r.evidence !== null);
    expect(messageReport).toMatchObject({
      status: 'open',
      reason: 'scam',
      text: 'asks for money',
      reporter: { user_id: reporter.userId, profile_id: reporter.profileId, name: 'Rita' },
      reported: { profile_id: offender.profileId, name: 'Ottokar', reports_about: 2 },
      evidence: { message_id: messageId, text: 'Send me money on this account' },
    });

    const warned = await call(moderator, 'PUT', '/api/admin/reports.php', {
      id: messageReport.id,
      action: 'warn',
      reason: 'first offence',
    });
    expect(warned.statusCode).toBe(200);
    expect(warned.json().report).toMatchObject({
      status: 'handled',
      action: 'warn',
      handled_by: { id: moderator.id, name: 'Mona Moderator' },
    });
    const mails = await mailsTo(offender.email);
    expect(mails.find((mail) => mail.kind === 'moderationWarning')?.subject).toMatch(/Moderationsteam/);
    const twice = await call(moderator, 'PUT', '/api/admin/reports.php', {
      id: messageReport.id,
      action: 'dismiss',
      reason: 'oops',
    });
    expect(twice.statusCode).toBe(409);
    expect(twice.json().error).toBe('report_handled');

    // Open ones come first; the handled one after them.
    const all = (await call(moderator, 'GET', '/api/admin/reports.php')).json().reports as {
      status: string;
    }[];
    const firstHandled = all.findIndex((r) => r.status === 'handled');
    expect(all.slice(firstHandled).every((r) => r.status === 'handled')).toBe(true);
    expect(await auditOf('report.warn', `report:${messageReport.id}`)).toHaveLength(1);

    // The member page shows reports about and by them.
    const detail = (await call(moderator, 'GET', `/api/admin/member.php?id=${offender.profileId}`)).json();
    expect(detail.member.reports_about).toBe(2);
    expect(detail.reports_about).toHaveLength(2);
    const reporterDetail = (
      await call(moderator, 'GET', `/api/admin/member.php?id=${reporter.profileId}`)
    ).json();
    expect(reporterDetail.reports_by).toHaveLength(2);

    // Ban from the queue.
    const profileReport = mine.find((r: { evidence: unknown }) => r.evidence === null);
    const banned = await call(moderator, 'PUT', '/api/admin/reports.php', {
      id: profileReport.id,
      action: 'ban',
      reason: 'repeat',
    });
    expect(banned.json().report).toMatchObject({ action: 'ban', reported: { user_status: 'banned' } });
    expect(await whoAmI(t.app, offender.cookie)).toBeNull();
    expect(await auditOf('report.ban', `report:${profileReport.id}`)).toHaveLength(1);
    expect(await auditOf('member.ban', `profile:${offender.profileId}`)).toHaveLength(1);
  });

  it('removes a reported photo from the queue, and dismisses a report', async () => {
    const member = await activeMember(t.app);
    const reporter = await activeMember(t.app);
    const photo = await uploadPhoto(t.app, member.cookie, 1);
    const report = async (reason: string) => {
      await t.app.inject({
        method: 'POST',
        url: '/api/report.php',
        headers: { cookie: reporter.cookie },
        payload: { profile: member.profileId, reason },
      });
      const open = (await call(moderator, 'GET', '/api/admin/reports.php?status=open')).json().reports;
      return open.find(
        (r: { reason: string; reported: { profile_id: number } }) =>
          r.reported.profile_id === member.profileId && r.reason === reason,
      );
    };
    const first = await report('offensive');
    expect(first.reported.photos.map((p: { id: number }) => p.id)).toEqual([photo]);
    const removed = await call(moderator, 'PUT', '/api/admin/reports.php', {
      id: first.id,
      action: 'remove_photo',
      photo,
      reason: 'nudity',
    });
    expect(removed.statusCode).toBe(200);
    expect(await t.database.db.select().from(photos).where(eq(photos.id, photo))).toHaveLength(0);
    expect((await mailsTo(member.email)).some((mail) => mail.kind === 'photoRemoved')).toBe(true);
    expect(await auditOf('member.photo_remove', `photo:${photo}`)).toHaveLength(1);

    const second = await report('other');
    const dismissed = await call(moderator, 'PUT', '/api/admin/reports.php', {
      id: second.id,
      action: 'dismiss',
      reason: 'nothing wrong',
    });
    expect(dismissed.json().report).toMatchObject({ status: 'handled', action: 'dismiss' });
    expect(await auditOf('report.dismiss', `report:${second.id}`)).toHaveLength(1);
  });

  it('queues new photos for approval; a rejected photo disappears for others and the member is told', async () => {
    const member = await activeMember(t.app);
    const viewer = await activeMember(t.app);
    const keep = await uploadPhoto(t.app, member.cookie, 2);
    const reject = await uploadPhoto(t.app, member.cookie, 3);
    const queue = async () =>
      (
        (await call(moderator, 'GET', '/api/admin/photo-queue.php')).json().photos as {
          photo: { id: number };
        }[]
      ).map((item) => item.photo.id);
    expect(await queue()).toEqual(expect.arrayContaining([keep, reject]));
    expect(
      (await call(moderator, 'PUT', '/api/admin/photo-queue.php', { photo: keep, decision: 'approve' }))
        .statusCode,
    ).toBe(200);
    const noReason = await call(moderator, 'PUT', '/api/admin/photo-queue.php', {
      photo: reject,
      decision: 'reject',
    });
    expect(noReason.statusCode).toBe(422);
    expect(
      (
        await call(moderator, 'PUT', '/api/admin/photo-queue.php', {
          photo: reject,
          decision: 'reject',
          reason: 'not you',
        })
      ).statusCode,
    ).toBe(200);
    const left = await queue();
    expect(left).not.toContain(keep);
    expect(left).not.toContain(reject);
    const seen = (
      await t.app.inject({
        url: `/api/member.php?id=${member.profileId}`,
        headers: { cookie: viewer.cookie },
      })
    ).json();
    const shown = JSON.stringify(seen);
    expect(seen.photos.map((p: { id: number }) => p.id)).toEqual([keep]);
    expect(shown).not.toContain(`"id":${reject}`);
    expect((await mailsTo(member.email)).some((mail) => mail.kind === 'photoRemoved')).toBe(true);
    expect(await auditOf('photo.approve', `photo:${keep}`)).toHaveLength(1);
    expect(await auditOf('photo.reject', `photo:${reject}`)).toHaveLength(1);
  });

  it('resends the activation mail and starts a deletion on request', async () => {
    const pending = await signupMember(t.app);
    const [pendingProfile] = (
      await call(moderator, 'GET', `/api/admin/members.php?q=${encodeURIComponent(pending.email)}`)
    ).json().members;
    const before = (await mailsTo(pending.email)).filter((mail) => mail.kind === 'activation').length;
    const resend = await call(moderator, 'POST', '/api/admin/member-activation.php', {
      member: pendingProfile.profile.id,
      reason: 'lost the mail',
    });
    expect(resend.statusCode).toBe(200);
    expect((await mailsTo(pending.email)).filter((mail) => mail.kind === 'activation')).toHaveLength(
      before + 1,
    );
    expect(await auditOf('member.resend_activation', `profile:${pendingProfile.profile.id}`)).toHaveLength(1);

    const active = await activeMember(t.app);
    expect(
      (
        await call(moderator, 'POST', '/api/admin/member-activation.php', {
          member: active.profileId,
          reason: 'x',
        })
      ).statusCode,
    ).toBe(422);
    const deletion = await call(moderator, 'POST', '/api/admin/member-deletion.php', {
      member: active.profileId,
      reason: 'asked by mail',
    });
    expect(deletion.statusCode).toBe(200);
    const [row] = await t.database.db.select().from(users).where(eq(users.id, active.userId));
    expect(row!.status).toBe('pending_deletion');
    expect(await whoAmI(t.app, active.cookie)).toBeNull();
    expect((await mailsTo(active.email)).some((mail) => mail.kind === 'deletion')).toBe(true);
    expect(await auditOf('member.start_deletion', `profile:${active.profileId}`)).toHaveLength(1);
  });

  it('exports a member’s data as a JSON file, for admins and for the member themselves', async () => {
    const member = await activeMember(t.app, { name: 'Dora' });
    const other = await activeMember(t.app);
    await grantCredits(t.app, member.userId, 10, true);
    await t.app.inject({
      method: 'POST',
      url: '/api/chat.php',
      headers: { cookie: member.cookie },
      payload: { profile: other.profileId, text: 'My own words' },
    });
    const photo = await uploadPhoto(t.app, member.cookie, 4);
    const response = await call(admin, 'GET', `/api/admin/member-export.php?id=${member.profileId}`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-disposition']).toBe(
      `attachment; filename="member-${member.profileId}.json"`,
    );
    const data = response.json();
    expect(data).toMatchObject({
      account: { id: member.userId, email: member.email },
      profile: { id: member.profileId, name: 'Dora' },
      photos: [{ id: photo, key: expect.any(String), url: expect.any(String) }],
      messages: [{ text: 'My own words', sent_by_member: true }],
      credits_ledger: expect.arrayContaining([expect.objectContaining({ delta: 10 })]),
      consents: { notifications_disabled: [], public_profile: false },
    });
    expect(await auditOf('member.export', `profile:${member.profileId}`)).toHaveLength(1);

    const own = await t.app.inject({ url: '/api/export.php', headers: { cookie: member.cookie } });
    expect(own.statusCode).toBe(200);
    expect(own.headers['content-disposition']).toBe('attachment; filename="my-data.json"');
    expect(own.json().profile.id).toBe(member.profileId);
    const visitor = await t.app.inject({ url: '/api/export.php' });
    expect(visitor.statusCode).toBe(403);
  });
});

if (process.env.DATABASE_URL && process.env.REDIS_URL) {
  describe('a ban on two instances sharing PostgreSQL and Redis', () => {
    it('closes the banned member’s live connection and refuses the next request on the other instance', async () => {
      const first = await createTestApp();
      const { buildApp } = await import('#server/app.ts');
      const second = await buildApp(first.config, {
        database: await (await import('#server/db/client.ts')).connectPostgres(
          first.databaseUrl!,
          3,
          testPooler,
        ),
        web: false,
        redisPrefix: first.redisPrefix,
      });
      try {
        await second.listen({ port: 0, host: '127.0.0.1' });
        const member = await activeMember(first.app);
        // The member is known on the second instance (a request there warms whatever it keeps).
        expect(await whoAmI(second, member.cookie)).toMatchObject({ id: member.userId });
        // …and has a live connection open there.
        const port = (second.server.address() as AddressInfo).port;
        const socket = new WebSocket(`ws://127.0.0.1:${port}/api/ws`, { headers: { cookie: member.cookie } });
        const closed = new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)));
        await new Promise<void>((resolve, reject) => {
          socket.on('message', (data) => {
            if (JSON.parse(String(data)).type === 'ready') resolve();
          });
          socket.on('error', reject);
        });
        const moderator = await signedInStaff(first.app, 'moderator');
        const ban = await first.app.inject({
          method: 'PUT',
          url: '/api/admin/member.php',
          headers: { cookie: moderator.cookie },
          payload: { id: member.profileId, status: 'banned', reason: 'fraud' },
        });
        expect(ban.statusCode).toBe(200);
        expect(await closed).toBe(4401);
        expect(await whoAmI(second, member.cookie)).toBeNull();
        const chats = await second.inject({ url: '/api/chats.php', headers: { cookie: member.cookie } });
        expect(chats.statusCode).toBe(403);
        const login = await second.inject({
          method: 'POST',
          url: '/api/user.php',
          remoteAddress: nextIp(),
          payload: { email: member.email, password: goodPassword },
        });
        expect(login.json().error).toBe('banned');
      } finally {
        await second.close();
        await first.close();
      }
    });
  });
}
