import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailJobs } from '#server/db/schema/mail.ts';
import { users } from '#server/db/schema/members.ts';
import { attributionEvents, visits } from '#server/db/schema/tracking.ts';
import { isPrivateAddress } from '#server/lib/public-address.ts';
import { createFakeClock } from '../../../tests/setup/fake-clock.ts';
import { goodPassword, nextIp, sessionCookie, uniqueEmail } from '../../../tests/setup/members.ts';
import { signedInStaff } from '../../../tests/setup/staff.ts';
import { createTestApp, type TestApp } from '../../../tests/setup/test-app.ts';
import { recordActivation, recordFirstPurchase, renderPostbackUrl } from './attribution.ts';
import { httpPostbackSender, postbackUrlProblem } from './postbacks.ts';
import { landerOf } from './tracking.service.ts';

/** The `tracking` cookie of an answer, ready for a Cookie header, or undefined. */
function trackingCookieOf(response: { headers: Record<string, unknown> }): string | undefined {
  const header = response.headers['set-cookie'];
  const cookies = Array.isArray(header) ? header.map(String) : header ? [String(header)] : [];
  return cookies.find((cookie) => cookie.startsWith('tracking='))?.split(';')[0];
}

function clickOf(cookie: string): string {
  return JSON.parse(decodeURIComponent(cookie.slice('tracking='.length))).click_id as string;
}

/** A loopback receiver of postbacks: answers with the given statuses in turn, then 200. */
async function startReceiver(statuses: number[]) {
  const received: string[] = [];
  const server: Server = createServer((request: IncomingMessage, response: ServerResponse) => {
    received.push(request.url ?? '');
    response.statusCode = statuses.shift() ?? 200;
    response.end('ok');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { received, port, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

const browser = {
  'user-agent':
    'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1',
};

describe('landing clicks, attribution and postbacks', () => {
  let t: TestApp;
  const clock = createFakeClock(new Date('2026-05-04T10:00:00Z'));
  let siteId: number;
  beforeAll(async () => {
    t = await createTestApp({}, { clock });
    siteId = (await t.app.deps.sites.resolve('localhost')).id;
  });
  afterAll(() => t.close());

  const visitsOf = (clickId: string) =>
    t.app.deps.db
      .select()
      .from(visits)
      .where(and(eq(visits.siteId, siteId), eq(visits.clickId, clickId)));
  const eventsOf = (clickId: string) =>
    t.app.deps.db
      .select()
      .from(attributionEvents)
      .where(and(eq(attributionEvents.siteId, siteId), eq(attributionEvents.clickId, clickId)))
      .orderBy(attributionEvents.id);
  const signup = (cookie: string | undefined) =>
    t.app.inject({
      method: 'POST',
      url: '/api/signup.php',
      remoteAddress: nextIp(),
      headers: cookie ? { cookie } : {},
      payload: {
        email: uniqueEmail('tracked'),
        name: 'Tracy',
        password: goodPassword,
        date_of_birth: '1990-01-01',
      },
    });

  it('records one visit per landing click with its lander, and none for a reload, a bot or an untracked page', async () => {
    const first = await t.app.inject({
      url: '/landers/gallery/summer-sale?network=adnet&sub1=blue&ref=r9',
      headers: browser,
    });
    const cookie = trackingCookieOf(first)!;
    expect(cookie).toBeDefined();
    const clickId = clickOf(cookie);
    expect(clickId).toMatch(/^[\w-]{16}$/);
    const [visit] = await visitsOf(clickId);
    expect(visit).toMatchObject({
      network: 'adnet',
      ref: 'r9',
      sub1: 'blue',
      sub2: null,
      lander: 'gallery',
      slug: 'summer-sale',
      path: '/landers/gallery/summer-sale',
      firstSeenAt: clock.now(),
    });
    // No address, agent or other personal data is kept with a visit.
    expect(Object.keys(visit!).sort()).toEqual(
      [
        'clickId',
        'firstSeenAt',
        'id',
        'lander',
        'network',
        'path',
        'ref',
        'siteId',
        'slug',
        'sub1',
        'sub2',
        'sub3',
      ].sort(),
    );

    const before = (await t.app.deps.db.select({ id: visits.id }).from(visits)).length;
    const reload = await t.app.inject({
      url: '/landers/gallery/summer-sale?network=adnet&sub1=blue&ref=r9',
      headers: { ...browser, cookie },
    });
    expect(trackingCookieOf(reload)).toBeUndefined();
    await t.app.inject({
      url: '/landers/gallery?network=adnet',
      headers: { 'user-agent': 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)' },
    });
    await t.app.inject({ url: '/landers/gallery', headers: browser });
    await t.app.inject({ url: '/api/featured.php?network=adnet', headers: browser });
    expect((await t.app.deps.db.select({ id: visits.id }).from(visits)).length).toBe(before);

    // Another ad (other parameters) from the same visitor is a new click.
    const other = await t.app.inject({
      url: '/landers/video?network=adnet&sub1=red',
      headers: { ...browser, cookie },
    });
    const otherClick = clickOf(trackingCookieOf(other)!);
    expect(otherClick).not.toBe(clickId);
    expect((await visitsOf(otherClick))[0]).toMatchObject({ lander: 'video', slug: null, sub1: 'red' });
  });

  it('keeps a network’s own click id, once however often it is sent', async () => {
    const url = '/members/42/landing2/spring?network=pushnet&clickid=PN-777.abc';
    const first = await t.app.inject({ url, headers: browser });
    expect(clickOf(trackingCookieOf(first)!)).toBe('PN-777.abc');
    await t.app.inject({ url, headers: browser });
    await Promise.all([t.app.inject({ url, headers: browser }), t.app.inject({ url, headers: browser })]);
    const found = await visitsOf('PN-777.abc');
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ network: 'pushnet', lander: 'member-landing2', slug: '42/spring' });
    // A click id that does not look like one is replaced by ours.
    const odd = await t.app.inject({ url: '/?network=pushnet&clickid=%3Cscript%3E', headers: browser });
    expect(clickOf(trackingCookieOf(odd)!)).not.toContain('<');
  });

  it('names landers and member landing pages from the path', () => {
    expect(landerOf('/landers/tinderswipe')).toEqual({ lander: 'tinderswipe', slug: null });
    expect(landerOf('/landers/maplanding/utrecht')).toEqual({ lander: 'maplanding', slug: 'utrecht' });
    expect(landerOf('/members/7/landing')).toEqual({ lander: 'member-landing', slug: '7' });
    expect(landerOf('/members/7/landing3/x')).toEqual({ lander: 'member-landing3', slug: '7/x' });
    expect(landerOf('/members/7/signup')).toEqual({ lander: 'member-signup', slug: '7' });
    expect(landerOf('/members/7/landing/x')).toBeNull();
    expect(landerOf('/members')).toBeNull();
    expect(landerOf('/')).toBeNull();
  });

  it('stores the click and lander on the member and records the signup with it', async () => {
    const landing = await t.app.inject({
      url: '/landers/iconslanding/a1?network=adnet&sub2=s2',
      headers: browser,
    });
    const cookie = trackingCookieOf(landing)!;
    const clickId = clickOf(cookie);
    const created = await signup(cookie);
    expect(created.statusCode).toBe(201);
    // What the member sees of it stays the network's parameters.
    expect(created.json().user.trafficsource).toEqual({ network: 'adnet', sub2: 's2' });
    const [row] = await t.app.deps.db
      .select({ trafficsource: users.trafficsource })
      .from(users)
      .where(eq(users.id, created.json().user.id));
    expect(row!.trafficsource).toEqual({
      network: 'adnet',
      sub2: 's2',
      click_id: clickId,
      lander: 'iconslanding',
      slug: 'a1',
    });
    const events = await eventsOf(clickId);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ event: 'signup', network: 'adnet', userId: created.json().user.id });
    expect(events[0]!.postbackStatus).toBe('none');
  });

  it('ignores a click id the site never recorded (a forged cookie)', async () => {
    const forged = `tracking=${encodeURIComponent(JSON.stringify({ network: 'adnet', click_id: 'not-ours', lander: 'x' }))}`;
    const created = await signup(forged);
    const [row] = await t.app.deps.db
      .select({ trafficsource: users.trafficsource })
      .from(users)
      .where(eq(users.id, created.json().user.id));
    expect(row!.trafficsource).toEqual({ network: 'adnet' });
    expect(await eventsOf('not-ours')).toHaveLength(0);
  });

  it('records the first activation and the first paid order once each, however many run in parallel', async () => {
    const landing = await t.app.inject({ url: '/landers/video?network=adnet&sub1=p', headers: browser });
    const cookie = trackingCookieOf(landing)!;
    const clickId = clickOf(cookie);
    const created = await signup(cookie);
    const userId = created.json().user.id as number;
    const memberCookie = sessionCookie(created);

    // The activation link (from the queued mail) activates and records once.
    const [mail] = await t.app.deps.db
      .select({ text: mailJobs.text })
      .from(mailJobs)
      .where(eq(mailJobs.kind, 'activation'))
      .orderBy(desc(mailJobs.id))
      .limit(1);
    const token = /token=([\w-]+)/.exec(mail!.text)![1]!;
    expect(await t.app.deps.accounts.activate(token)).toBe(true);
    await Promise.all(
      Array.from({ length: 5 }, () =>
        t.app.deps.db.transaction((tx) => recordActivation(tx, userId, clock.now())),
      ),
    );

    // Two orders paid at the same moment: one first purchase.
    const bundles = (
      await t.app.inject({ url: '/api/bundles.php', headers: { cookie: memberCookie } })
    ).json();
    const placed = [];
    for (let index = 0; index < 2; index++) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/order.php',
        headers: { cookie: memberCookie },
        payload: {
          bundle: bundles.bundles[index % bundles.bundles.length].id,
          paymentmethod: bundles.paymentmethods[0],
        },
      });
      expect(response.statusCode).toBe(201);
      placed.push(response.json());
    }
    const results = await Promise.all(
      placed.map((order) =>
        t.app.inject({
          method: 'POST',
          url: '/api/test-payment.php',
          headers: { cookie: memberCookie },
          payload: { payment: String(order.checkout_url).split('/').at(-1), status: 'paid' },
        }),
      ),
    );
    expect(results.map((result) => result.statusCode < 400)).toEqual([true, true]);
    await Promise.all(
      Array.from({ length: 4 }, () =>
        t.app.deps.db.transaction((tx) =>
          recordFirstPurchase(tx, { userId, amountCents: 1, currency: 'EUR' }, clock.now()),
        ),
      ),
    );

    const events = await eventsOf(clickId);
    expect(events.map((event) => event.event)).toEqual(['signup', 'activation', 'first_purchase']);
    const purchase = events[2]!;
    expect(purchase.amountCents).toBeGreaterThan(1);
    expect(purchase.currency).toMatch(/^[A-Z]{3}$/);
    const [member] = await t.app.deps.db
      .select({ activatedAt: users.activatedAt, firstPurchaseAt: users.firstPurchaseAt })
      .from(users)
      .where(eq(users.id, userId));
    expect(member!.activatedAt).toEqual(clock.now());
    expect(member!.firstPurchaseAt).toEqual(clock.now());
  });

  it('sends each event’s postback to the network’s URL, retrying until the receiver takes it', async () => {
    const receiver = await startReceiver([500, 503]);
    try {
      const admin = await signedInStaff(t.app, 'admin', { now: clock.now });
      const saved = await t.app.inject({
        method: 'PUT',
        url: '/api/admin/sites.php',
        headers: { cookie: admin.cookie },
        payload: {
          id: siteId,
          postbacks: [
            {
              network: 'PostNet',
              url: `http://127.0.0.1:${receiver.port}/pb?cid={click_id}&e={event}&a={amount}&c={currency}`,
              events: ['signup', 'first_purchase'],
            },
          ],
        },
      });
      expect(saved.statusCode).toBe(200);
      expect(saved.json().site.postbacks).toHaveLength(1);

      const landing = await t.app.inject({ url: '/landers/gallery?network=postnet', headers: browser });
      const clickId = clickOf(trackingCookieOf(landing)!);
      const created = await signup(trackingCookieOf(landing));
      const userId = created.json().user.id as number;
      await t.app.deps.db.transaction(async (tx) => {
        await recordActivation(tx, userId, clock.now());
        await recordFirstPurchase(tx, { userId, amountCents: 1299, currency: 'EUR' }, clock.now());
      });
      const events = await eventsOf(clickId);
      expect(events.map((event) => [event.event, event.postbackStatus])).toEqual([
        ['signup', 'pending'],
        ['activation', 'none'],
        ['first_purchase', 'pending'],
      ]);

      // First run: the receiver fails both (500, 503); they wait a minute.
      expect(await t.app.deps.postbacks.processDue()).toBe(0);
      expect(receiver.received).toHaveLength(2);
      expect(await t.app.deps.postbacks.processDue()).toBe(0);
      expect(receiver.received).toHaveLength(2);
      const failed = await eventsOf(clickId);
      expect(failed[0]).toMatchObject({
        postbackStatus: 'pending',
        postbackAttempts: 1,
        postbackError: expect.stringMatching(/^HTTP 50[03]$/),
      });

      clock.advanceMinutes(1.5);
      expect(await t.app.deps.postbacks.processDue()).toBe(2);
      expect(receiver.received.slice(2).sort()).toEqual(
        [`/pb?cid=${clickId}&e=first_purchase&a=12.99&c=EUR`, `/pb?cid=${clickId}&e=signup&a=&c=`].sort(),
      );
      const sent = await eventsOf(clickId);
      expect(sent.filter((event) => event.postbackStatus === 'sent')).toHaveLength(2);
      expect(await t.app.deps.postbacks.processDue()).toBe(0);
      expect(receiver.received).toHaveLength(4);
    } finally {
      await receiver.close();
    }
  });

  it('gives a postback up after its last try', async () => {
    const receiver = await startReceiver(Array.from({ length: 10 }, () => 500));
    try {
      const admin = await signedInStaff(t.app, 'admin', { now: clock.now });
      await t.app.inject({
        method: 'PUT',
        url: '/api/admin/sites.php',
        headers: { cookie: admin.cookie },
        payload: {
          id: siteId,
          postbacks: [
            {
              network: 'deadnet',
              url: `http://127.0.0.1:${receiver.port}/x?c={click_id}`,
              events: ['signup'],
            },
          ],
        },
      });
      const landing = await t.app.inject({ url: '/?network=deadnet', headers: browser });
      const clickId = clickOf(trackingCookieOf(landing)!);
      await signup(trackingCookieOf(landing));
      for (let run = 0; run < 8; run++) {
        await t.app.deps.postbacks.processDue();
        clock.advanceMinutes(721);
      }
      const [event] = await eventsOf(clickId);
      expect(event).toMatchObject({ postbackStatus: 'failed', postbackAttempts: 6, postbackNextAt: null });
      expect(receiver.received).toHaveLength(6);
    } finally {
      await receiver.close();
    }
  });

  it('accepts only http(s) postback URLs with known placeholders, and public addresses in production', async () => {
    const admin = await signedInStaff(t.app, 'admin', { now: clock.now });
    const refused = await t.app.inject({
      method: 'PUT',
      url: '/api/admin/sites.php',
      headers: { cookie: admin.cookie },
      payload: {
        id: siteId,
        postbacks: [
          { network: 'a', url: 'ftp://files.example/x', events: ['signup'] },
          { network: 'b', url: 'https://ok.example/x?c={clickid}', events: ['signup'] },
          { network: 'c', url: 'https://ok.example/x', events: [] },
        ],
      },
    });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().fields).toEqual({
      'postbacks.0.url': 'invalid_url',
      'postbacks.1.url': 'invalid_url',
      'postbacks.2.events': 'required',
    });
    const twice = await t.app.inject({
      method: 'PUT',
      url: '/api/admin/sites.php',
      headers: { cookie: admin.cookie },
      payload: {
        id: siteId,
        postbacks: [
          { network: 'Same', url: 'https://a.example/', events: ['signup'] },
          { network: 'same', url: 'https://b.example/', events: ['signup'] },
        ],
      },
    });
    expect(twice.json().fields).toEqual({ postbacks: 'duplicate' });

    expect(postbackUrlProblem('https://track.adnet.com/pb?cid={click_id}&v={amount}', false)).toBeNull();
    for (const url of [
      'http://127.0.0.1/pb',
      'http://10.1.2.3/pb',
      'http://192.168.0.10/pb',
      'http://169.254.169.254/latest/meta-data',
      'http://[::1]/pb',
      'http://[::7f00:1]:8080/pb',
      'http://[::ffff:7f00:1]/pb',
      'http://[fd00::1]/pb',
      'http://localhost:8080/pb',
      'http://metadata.internal/pb',
      'http://intranet/pb',
    ]) {
      expect(postbackUrlProblem(url, false), url).toBe('private_address');
      expect(postbackUrlProblem(url, true), url).toBeNull();
    }
    expect(postbackUrlProblem('https://user:pw@adnet.com/pb', false)).toBe('invalid_url');
    expect(postbackUrlProblem('javascript:alert(1)', true)).toBe('invalid_url');
    expect(isPrivateAddress('::ffff:127.0.0.1')).toBe(true);
    expect(isPrivateAddress('8.8.8.8')).toBe(false);
    expect(isPrivateAddress('2606:4700::1111')).toBe(false);
  });

  it('never connects to a private address in production, also when a name resolves to one', async () => {
    const receiver = await startReceiver([]);
    try {
      const send = httpPostbackSender(false);
      await expect(send(`http://127.0.0.1:${receiver.port}/x`)).rejects.toThrow(/private/);
      await expect(send(`http://localhost:${receiver.port}/x`)).rejects.toThrow(/private/);
      await expect(send(`http://[::7f00:1]:${receiver.port}/x`)).rejects.toThrow(/private/);
      await expect(send(`http://[::ffff:127.0.0.1]:${receiver.port}/x`)).rejects.toThrow(/private/);
      expect(receiver.received).toHaveLength(0);
      expect(await httpPostbackSender(true)(`http://127.0.0.1:${receiver.port}/x`)).toBe(200);
    } finally {
      await receiver.close();
    }
  });

  it('fills the URL template with encoded values', () => {
    expect(
      renderPostbackUrl('https://n.example/p?c={click_id}&e={event}&a={amount}&cur={currency}&x={other}', {
        click_id: 'a b&c',
        event: 'first_purchase',
        amount: '12.99',
        currency: 'EUR',
      }),
    ).toBe('https://n.example/p?c=a%20b%26c&e=first_purchase&a=12.99&cur=EUR&x={other}');
  });
});
