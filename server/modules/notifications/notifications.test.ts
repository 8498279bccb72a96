import { createECDH, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { and, eq, sql } from 'drizzle-orm';
import ece from 'http_ece';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import webpush from 'web-push';
import { jobs } from '#server/db/schema/jobs.ts';
import { mailJobs } from '#server/db/schema/mail.ts';
import { users } from '#server/db/schema/members.ts';
import { pushSubscriptions } from '#server/db/schema/notifications.ts';
import { JobRunner } from '#server/modules/jobs/job-runner.ts';
import { activeMember } from '../../../tests/setup/members.ts';
import { createTestApp, type TestApp } from '../../../tests/setup/test-app.ts';
import { NotificationsService, type PushSender } from './notifications.service.ts';

/**
 * A push service on loopback that keeps what it receives; a path ending in /gone answers 410, and a
 * path with /flaky answers 503 the first time.
 */
async function startPushService() {
  const received: { path: string; body: Buffer; headers: Record<string, unknown> }[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk) => chunks.push(chunk));
    request.on('end', () => {
      const path = request.url ?? '';
      const firstTry = !received.some((earlier) => earlier.path === path);
      received.push({ path, body: Buffer.concat(chunks), headers: request.headers });
      response.statusCode = path.endsWith('/gone') ? 410 : path.includes('/flaky') && firstTry ? 503 : 201;
      response.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Real Web Push: the payload is encrypted (aes128gcm) and VAPID-signed by web-push, then sent over HTTP. */
const loopbackSender: PushSender = async (subscription, payload, options) => {
  const details = webpush.generateRequestDetails(subscription, payload, options);
  const response = await fetch(details.endpoint, {
    method: 'POST',
    headers: details.headers as Record<string, string>,
    body: new Uint8Array(details.body as Buffer),
  });
  if (response.status >= 400) throw Object.assign(new Error('push failed'), { statusCode: response.status });
};

/** A browser's push keys: what the server encrypts for, and what decrypts on the device. */
function deviceKeys() {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const auth = randomBytes(16);
  return {
    ecdh,
    auth,
    keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: auth.toString('base64url') },
  };
}

describe('notifications', () => {
  let t: TestApp;
  let push: Awaited<ReturnType<typeof startPushService>>;
  beforeAll(async () => {
    push = await startPushService();
    t = await createTestApp(
      { MAIL_WEBHOOK_SECRET: 'webhook-secret-for-tests' },
      { pushSender: loopbackSender },
    );
  });
  afterAll(async () => {
    await t.close();
    await push.close();
  });
  beforeEach(async () => {
    await t.database.db.delete(mailJobs);
  });

  const send = (cookie: string, profile: number, text: string) =>
    t.app.inject({ method: 'POST', url: '/api/chat.php', headers: { cookie }, payload: { profile, text } });
  const mailsTo = async (email: string, kind = 'newMessage') =>
    (await t.database.db.select().from(mailJobs).where(eq(mailJobs.to, email))).filter(
      (mail) => mail.kind === kind,
    );

  it('mails an offline member once per conversation until read, and pushes a payload that names the sender', async () => {
    const sender = await activeMember(t.app, { name: 'Sender' });
    const receiver = await activeMember(t.app, { name: 'Receiver' });
    const device = deviceKeys();
    const endpoint = `${push.url}/push/${receiver.userId}`;
    const registered = await t.app.inject({
      method: 'POST',
      url: '/api/user.php?push=1',
      headers: { cookie: receiver.cookie },
      payload: { endpoint, keys: device.keys },
    });
    expect(registered.json()).toEqual({ ok: true });

    const first = await send(sender.cookie, receiver.profileId, 'First message');
    await send(sender.cookie, receiver.profileId, 'Second message');
    await send(sender.cookie, receiver.profileId, 'Third message');
    const mails = await mailsTo(receiver.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe('Sender sent you a message on Amora');
    expect(mails[0]!.text).toContain('First message');
    expect(mails[0]!.headers['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click');
    expect(mails[0]!.headers['List-Unsubscribe']).toMatch(/\/api\/unsubscribe\.php\?token=/);

    const pushed = push.received.filter((request) => request.path === `/push/${receiver.userId}`);
    expect(pushed).toHaveLength(3);
    expect(pushed[0]!.headers['content-encoding']).toBe('aes128gcm');
    expect(String(pushed[0]!.headers.authorization)).toMatch(/^vapid t=/);
    const payload = JSON.parse(
      ece
        .decrypt(pushed[0]!.body, { version: 'aes128gcm', privateKey: device.ecdh, authSecret: device.auth })
        .toString(),
    );
    expect(payload).toMatchObject({
      title: 'Sender sent you a message on Amora',
      url: `/chats/${first.json().message.conversation}`,
    });

    await t.app.inject({
      url: `/api/chat.php?conversation=${first.json().message.conversation}`,
      headers: { cookie: receiver.cookie },
    });
    await send(sender.cookie, receiver.profileId, 'After reading');
    expect(await mailsTo(receiver.email)).toHaveLength(2);
  });

  it('sends nothing while the member is online', async () => {
    const sender = await activeMember(t.app);
    const receiver = await activeMember(t.app);
    await t.app.deps.notifications.markOnline(receiver.userId);
    await send(sender.cookie, receiver.profileId, 'Hello there');
    expect(await mailsTo(receiver.email)).toHaveLength(0);
    await t.app.deps.notifications.markOffline(receiver.userId);
    await send(sender.cookie, receiver.profileId, 'Still there?');
    expect(await mailsTo(receiver.email)).toHaveLength(1);
  });

  it('unsubscribes with one click from the mail, without login, and records why', async () => {
    const sender = await activeMember(t.app, { name: 'Writer' });
    const receiver = await activeMember(t.app);
    await send(sender.cookie, receiver.profileId, 'Hi!');
    const [mail] = await mailsTo(receiver.email);
    const url = new URL(mail!.headers['List-Unsubscribe']!.slice(1, -1));
    const oneClick = await t.app.inject({
      method: 'POST',
      url: url.pathname + url.search,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(oneClick.json()).toEqual({ ok: true, stopped: 'all' });
    const settings = (
      await t.app.inject({ url: '/api/notifications.php', headers: { cookie: receiver.cookie } })
    ).json();
    expect(settings.notifications_disabled).toEqual(['unsubscribe']);
    const forged = await t.app.inject({
      method: 'POST',
      url: `/api/unsubscribe.php?token=${receiver.userId}.forged-signature-forged-signatu`,
      payload: {},
    });
    expect(forged.statusCode).toBe(404);

    await t.database.db.delete(mailJobs);
    const chat = (await t.app.inject({ url: '/api/chats.php', headers: { cookie: receiver.cookie } })).json()
      .chats[0];
    await t.app.inject({
      url: `/api/chat.php?conversation=${chat.conversation.id}`,
      headers: { cookie: receiver.cookie },
    });
    await send(sender.cookie, receiver.profileId, 'Are you there?');
    expect(await mailsTo(receiver.email)).toHaveLength(0);

    await t.app.inject({
      method: 'PUT',
      url: '/api/notifications.php',
      headers: { cookie: receiver.cookie },
      payload: { enable_email: true },
    });
    expect(
      (await t.app.inject({ url: '/api/notifications.php', headers: { cookie: receiver.cookie } })).json()
        .notifications_disabled,
    ).toEqual([]);
  });

  it("disables mails on the provider's bounce webhook, which needs its secret", async () => {
    const member = await activeMember(t.app);
    const denied = await t.app.inject({
      method: 'POST',
      url: '/api/mail-events.php',
      payload: { email: member.email, type: 'bounce' },
    });
    expect(denied.statusCode).toBe(403);
    const bounce = await t.app.inject({
      method: 'POST',
      url: '/api/mail-events.php',
      headers: { 'x-webhook-secret': 'webhook-secret-for-tests' },
      payload: { email: member.email.toUpperCase(), type: 'bounce' },
    });
    expect(bounce.json()).toEqual({ ok: true, members: 1 });
    const [row] = await t.database.db.select().from(users).where(eq(users.id, member.userId));
    expect(row?.notificationsDisabled).toEqual(['bounce']);
  });

  it('sends each push as a job: one the push service fails is tried again when its time comes, and delivered once', async () => {
    const sender = await activeMember(t.app);
    const receiver = await activeMember(t.app);
    const path = `/push/flaky-${receiver.userId}`;
    await t.app.inject({
      method: 'POST',
      url: '/api/user.php?push=1',
      headers: { cookie: receiver.cookie },
      payload: { endpoint: `${push.url}${path}`, keys: deviceKeys().keys },
    });
    expect((await send(sender.cookie, receiver.profileId, 'are you there?')).statusCode).toBe(201);
    const tries = () => push.received.filter((request) => request.path === path);
    expect(tries()).toHaveLength(1);
    const pushJob = async () =>
      (
        await t.database.db
          .select()
          .from(jobs)
          .where(and(eq(jobs.queue, 'push.send'), sql`(${jobs.payload}->>'user')::int = ${receiver.userId}`))
      )[0]!;
    const failed = await pushJob();
    expect(failed).toMatchObject({ status: 'queued', attempts: 1, lastError: 'push failed' });
    expect(failed.runAt.getTime()).toBeGreaterThan(Date.now());
    // Not before its time; then once, and done.
    await t.app.deps.jobs.runDue(['push.send']);
    expect(tries()).toHaveLength(1);
    await t.database.db.update(jobs).set({ runAt: new Date() }).where(eq(jobs.id, failed.id));
    await t.app.deps.jobs.runDue(['push.send']);
    await t.app.deps.jobs.runDue(['push.send']);
    expect(tries()).toHaveLength(2);
    expect(await pushJob()).toMatchObject({ status: 'done', attempts: 2 });
  });

  it('removes a push subscription the push service says is gone, and honours the settings', async () => {
    const sender = await activeMember(t.app);
    const receiver = await activeMember(t.app);
    await t.app.inject({
      method: 'POST',
      url: '/api/user.php?push=1',
      headers: { cookie: receiver.cookie },
      payload: { endpoint: `${push.url}/push/gone`, keys: deviceKeys().keys },
    });
    await send(sender.cookie, receiver.profileId, 'ping');
    expect(
      await t.database.db
        .select()
        .from(pushSubscriptions)
        .where(eq(pushSubscriptions.userId, receiver.userId)),
    ).toEqual([]);

    const quiet = await activeMember(t.app);
    await t.app.inject({
      method: 'PUT',
      url: '/api/notifications.php',
      headers: { cookie: quiet.cookie },
      payload: { email: { messages: false } },
    });
    await send(sender.cookie, quiet.profileId, 'hello quiet');
    expect(await mailsTo(quiet.email)).toHaveLength(0);
  });

  it('in production, takes and pushes to public HTTPS endpoints only', async () => {
    const member = await activeMember(t.app);
    const sent: string[] = [];
    const production = new NotificationsService(
      t.app.deps.db,
      t.app.deps.clock,
      t.app.deps.mail,
      t.app.deps.translator,
      t.app.deps.secrets,
      { PUBLIC_URL: undefined, PORT: 3000, NODE_ENV: 'production' },
      new JobRunner(t.app.deps.db, t.app.deps.clock, { reportCaught: t.app.deps.caught.reportCaught }),
      async (subscription) => {
        sent.push(subscription.endpoint);
      },
    );
    const user = (await t.database.db.select().from(users).where(eq(users.id, member.userId)))[0]!;
    const keys = deviceKeys().keys;
    for (const endpoint of [
      'https://[::7f00:1]/push/x',
      'https://[::ffff:169.254.169.254]/push/x',
      'https://127.0.0.1/push/x',
      'https://localhost/push/x',
      'http://push.example.com/push/x',
    ]) {
      await expect(production.registerPush(user, { endpoint, keys }), endpoint).rejects.toMatchObject({
        code: 'validation_failed',
      });
    }
    await production.registerPush(user, { endpoint: 'https://push.example.com/push/x', keys });

    // One stored before the check (here: by the test app, which allows loopback) is dropped, not sent to.
    await t.app.deps.notifications.registerPush(user, { endpoint: 'https://[::7f00:1]/push/old', keys });
    const site = await t.app.deps.sites.resolve(undefined);
    const failures: string[] = [];
    production.onPushFailure = (failure) => failures.push(failure.error);
    expect(await production.push(member.userId, site, { title: 't', body: 'b', url: '/', tag: 'x' })).toBe(1);
    expect(sent).toEqual(['https://push.example.com/push/x']);
    expect(failures).toEqual(['push endpoint refused: private_address']);
    const left = await t.database.db
      .select({ endpoint: pushSubscriptions.endpoint })
      .from(pushSubscriptions)
      .where(eq(pushSubscriptions.userId, member.userId));
    expect(left).toEqual([{ endpoint: 'https://push.example.com/push/x' }]);
  });

  it('serves a manifest and icons per site', async () => {
    const manifest = (
      await t.app.inject({ url: '/manifest.webmanifest', headers: { host: 'nl.localhost' } })
    ).json();
    expect(manifest).toMatchObject({ name: 'Flirtpunt', display: 'standalone' });
    const icon = await t.app.inject({ url: '/icons/icon-192.png' });
    expect(icon.headers['content-type']).toBe('image/png');
  });
});

describe('message mails wait for the push', () => {
  it('drops the mail when the message was read within five minutes, and sends it otherwise', async () => {
    const { createFakeClock } = await import('../../../tests/setup/fake-clock.ts');
    const clock = createFakeClock();
    const t = await createTestApp({}, { clock, pushSender: loopbackSender });
    try {
      const sender = await activeMember(t.app, { name: 'Quick' });
      const reader = await activeMember(t.app);
      const away = await activeMember(t.app);
      await t.app.deps.mail.processDue(); // the activation mails of the signups
      const toReader = (await send(t, sender.cookie, reader.profileId, 'read me soon')).json().message;
      await send(t, sender.cookie, away.profileId, 'nobody reads me');
      expect(await t.app.deps.mail.processDue()).toBe(0);

      await t.app.inject({
        url: `/api/chat.php?conversation=${toReader.conversation}`,
        headers: { cookie: reader.cookie },
      });
      clock.advanceMinutes(6);
      await t.app.deps.mail.processDue();
      const jobs = await t.database.db.select().from(mailJobs);
      const statusOf = (email: string) =>
        jobs.find((job) => job.to === email && job.kind === 'newMessage')?.status;
      expect(statusOf(reader.email)).toBe('skipped');
      expect(statusOf(away.email)).toBe('sent');
    } finally {
      await t.close();
    }
  });
});

function send(t: TestApp, cookie: string, profile: number, text: string) {
  return t.app.inject({
    method: 'POST',
    url: '/api/chat.php',
    headers: { cookie },
    payload: { profile, text },
  });
}
