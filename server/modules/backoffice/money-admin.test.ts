import { and, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gifts } from '#server/db/schema/catalog.ts';
import { creditLedger } from '#server/db/schema/credits.ts';
import { profiles, users } from '#server/db/schema/members.ts';
import { orderEvents, orders } from '#server/db/schema/payments.ts';
import { staffAudit } from '#server/db/schema/staff.ts';
import { activeMember, grantCredits } from '../../../tests/setup/members.ts';
import { freshFictionalProfile, signedInStaff, type TestStaff } from '../../../tests/setup/staff.ts';
import { createTestApp, type TestApp } from '../../../tests/setup/test-app.ts';

type Member = Awaited<ReturnType<typeof activeMember>>;
const boundary = '----money-admin-boundary';

describe('back office: money and offers', () => {
  let t: TestApp;
  let operator: TestStaff;
  let moderator: TestStaff;
  let admin: TestStaff;
  beforeAll(async () => {
    t = await createTestApp();
    operator = await signedInStaff(t.app, 'operator');
    moderator = await signedInStaff(t.app, 'moderator');
    admin = await signedInStaff(t.app, 'admin', { name: 'Mia Money' });
  });
  afterAll(() => t.close());

  const call = (who: TestStaff, method: 'GET' | 'PUT' | 'POST' | 'DELETE', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: { cookie: who.cookie }, ...(payload ? { payload } : {}) });
  const auditOf = (action: string, object: string) =>
    t.database.db
      .select()
      .from(staffAudit)
      .where(and(eq(staffAudit.action, action), eq(staffAudit.object, object)));
  const memberGet = (member: Member, url: string) =>
    t.app.inject({ url, headers: { cookie: member.cookie } });

  /** An order of the member's first bundle (optionally with a code), paid through the test checkout. */
  async function paidOrder(
    member: Member,
    options: { bundle?: number; code?: string; method?: string; pay?: 'paid' | 'failed' } = {},
  ) {
    const offer = (await memberGet(member, '/api/bundles.php')).json();
    const ordered = await t.app.inject({
      method: 'POST',
      url: '/api/order.php',
      headers: { cookie: member.cookie },
      payload: {
        bundle: options.bundle ?? offer.bundles[0].id,
        paymentmethod: options.method ?? offer.paymentmethods[0],
        ...(options.code ? { discountcode: options.code } : {}),
      },
    });
    expect(ordered.statusCode, ordered.body).toBe(201);
    const { order, checkout_url } = ordered.json();
    const payment = (checkout_url as string).split('/').at(-1)!;
    const paid = await t.app.inject({
      method: 'POST',
      url: '/api/test-payment.php',
      headers: { cookie: member.cookie },
      payload: { payment, status: options.pay ?? 'paid' },
    });
    expect(paid.statusCode, paid.body).toBe(200);
    return { id: order.id as number, credits: order.credits as number, payment };
  }

  const webhook = (payment: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/payment-webhook.php',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `id=${payment}`,
    });

  it('refuses operators and moderators on every money call (403 forbidden), members get staff_required', async () => {
    const calls: [method: 'GET' | 'PUT' | 'POST' | 'DELETE', url: string, body?: object][] = [
      ['GET', '/api/admin/bundles.php'],
      ['POST', '/api/admin/bundles.php', { credits: 10 }],
      ['PUT', '/api/admin/bundles.php', { id: 1, active: false }],
      ['PUT', '/api/admin/bundle-prices.php', { bundle: 1, country: 'NL', amount: 100, currency: 'EUR' }],
      ['DELETE', '/api/admin/bundle-prices.php', { bundle: 1, country: 'NL' }],
      ['GET', '/api/admin/gifts.php'],
      ['POST', '/api/admin/gifts.php', { slug: 'lily', names: { en: 'Lily' } }],
      ['PUT', '/api/admin/gifts.php', { id: 1, position: 3 }],
      ['POST', '/api/admin/gift-image.php?gift=1'],
      ['GET', '/api/admin/discountcodes.php'],
      ['POST', '/api/admin/discountcodes.php', { code: 'NOPE10', value_percentage: 10 }],
      ['PUT', '/api/admin/discountcodes.php', { id: 1, status: 'inactive' }],
      ['GET', '/api/admin/orders.php'],
      ['GET', '/api/admin/orders-export.php'],
      ['GET', '/api/admin/order.php?id=1'],
    ];
    const member = await activeMember(t.app);
    for (const [method, url, body] of calls) {
      for (const who of [operator, moderator]) {
        const response = await call(who, method, url, body);
        expect(response.statusCode, `${who.email} ${method} ${url}`).toBe(403);
        expect(response.json().error).toBe('forbidden');
      }
      const asMember = await t.app.inject({
        method,
        url,
        headers: { cookie: member.cookie },
        ...(body ? { payload: body } : {}),
      });
      expect(asMember.json().error, `${method} ${url}`).toBe('staff_required');
    }
    expect(
      (await t.database.db.select().from(staffAudit)).filter((row) => row.action.startsWith('bundle.')),
    ).toHaveLength(0);
  });

  it('creates a bundle with a badge and prices per country; members see price, badge and removal at once', async () => {
    const invalid = await call(admin, 'POST', '/api/admin/bundles.php', { credits: 0, badge: 'cheapest' });
    expect(invalid.statusCode).toBe(422);
    expect(invalid.json().fields).toEqual({ credits: 'out_of_range', badge: 'invalid' });

    const created = await call(admin, 'POST', '/api/admin/bundles.php', {
      credits: 777,
      position: 0,
      badge: 'most_popular',
    });
    expect(created.statusCode, created.body).toBe(201);
    const bundle = created.json().bundle;
    expect(bundle).toMatchObject({
      credits: 777,
      active: true,
      badge: 'most_popular',
      prices: [],
      orders: 0,
    });
    expect(await auditOf('bundle.create', `bundle:${bundle.id}`)).toHaveLength(1);

    const badPrice = await call(admin, 'PUT', '/api/admin/bundle-prices.php', {
      bundle: bundle.id,
      country: 'nl',
      amount: -5,
      currency: 'EURO',
    });
    expect(badPrice.statusCode).toBe(422);
    expect(badPrice.json().fields).toEqual({
      country: 'invalid',
      amount: 'out_of_range',
      currency: 'invalid',
    });
    const unknownCurrency = await call(admin, 'PUT', '/api/admin/bundle-prices.php', {
      bundle: bundle.id,
      country: 'NL',
      amount: 500,
      currency: 'QQQ',
    });
    expect(unknownCurrency.json().fields).toEqual({ currency: 'invalid' });
    const noBundle = await call(admin, 'PUT', '/api/admin/bundle-prices.php', {
      bundle: 999_999,
      country: 'NL',
      amount: 500,
      currency: 'EUR',
    });
    expect(noBundle.statusCode).toBe(404);

    const member = await activeMember(t.app);
    const offer = (await memberGet(member, '/api/bundles.php')).json();
    const country = offer.country as string;
    expect(offer.bundles.map((b: { id: number }) => b.id)).not.toContain(bundle.id);

    const priced = await call(admin, 'PUT', '/api/admin/bundle-prices.php', {
      bundle: bundle.id,
      country,
      amount: 4321,
      currency: 'EUR',
    });
    expect(priced.statusCode, priced.body).toBe(200);
    expect(priced.json().bundle.prices).toEqual([{ country, amount: 4321, currency: 'EUR' }]);
    const listed = (await memberGet(member, '/api/bundles.php')).json().bundles;
    expect(listed.find((b: { id: number }) => b.id === bundle.id)).toEqual({
      id: bundle.id,
      credits: 777,
      price: 4321,
      currency: 'EUR',
      badge: 'most_popular',
    });
    const quote = await memberGet(
      member,
      `/api/quote.php?bundle=${bundle.id}&paymentmethod=${offer.paymentmethods[0]}`,
    );
    expect(quote.json()).toMatchObject({ bundle: bundle.id, credits: 777, list_price: 4321, amount: 4321 });

    // A changed price is the next quote's price.
    await call(admin, 'PUT', '/api/admin/bundle-prices.php', {
      bundle: bundle.id,
      country,
      amount: 3999,
      currency: 'EUR',
    });
    const requoted = await memberGet(
      member,
      `/api/quote.php?bundle=${bundle.id}&paymentmethod=${offer.paymentmethods[0]}`,
    );
    expect(requoted.json()).toMatchObject({ list_price: 3999, amount: 3999 });
    expect(await auditOf('bundle.price', `bundle:${bundle.id}`)).toHaveLength(2);

    // Deactivated: off the list, and no longer orderable.
    const off = await call(admin, 'PUT', '/api/admin/bundles.php', { id: bundle.id, active: false });
    expect(off.json().bundle.active).toBe(false);
    expect(
      (await memberGet(member, '/api/bundles.php')).json().bundles.map((b: { id: number }) => b.id),
    ).not.toContain(bundle.id);
    const gone = await memberGet(
      member,
      `/api/quote.php?bundle=${bundle.id}&paymentmethod=${offer.paymentmethods[0]}`,
    );
    expect(gone.statusCode).toBe(422);
    const [update] = await auditOf('bundle.update', `bundle:${bundle.id}`);
    expect(update?.detail).toMatchObject({ fields: 'active', active: false });

    await call(admin, 'PUT', '/api/admin/bundles.php', { id: bundle.id, active: true, badge: null });
    const removed = await call(admin, 'DELETE', '/api/admin/bundle-prices.php', {
      bundle: bundle.id,
      country,
    });
    expect(removed.json().bundle.prices).toEqual([]);
    expect(await auditOf('bundle.price_remove', `bundle:${bundle.id}`)).toHaveLength(1);
    const again = await call(admin, 'DELETE', '/api/admin/bundle-prices.php', { bundle: bundle.id, country });
    expect(again.statusCode).toBe(404);
    const all = (await call(admin, 'GET', '/api/admin/bundles.php')).json().bundles;
    expect(all.find((b: { id: number }) => b.id === bundle.id)).toMatchObject({ badge: null, active: true });
  });

  it('gifts: names per language, an image without its metadata, its own cost or the site’s', async () => {
    const noName = await call(admin, 'POST', '/api/admin/gifts.php', {
      slug: 'lily',
      names: { de: 'Lilie' },
    });
    expect(noName.json().fields).toEqual({ 'names.en': 'required' });
    const badSlug = await call(admin, 'POST', '/api/admin/gifts.php', { slug: 'a b', names: { en: 'X' } });
    expect(badSlug.json().fields).toEqual({ slug: 'invalid' });
    const taken = await call(admin, 'POST', '/api/admin/gifts.php', { slug: 'rose', names: { en: 'Rose' } });
    expect(taken.json().fields).toEqual({ slug: 'slug_taken' });
    const activeWithout = await call(admin, 'POST', '/api/admin/gifts.php', {
      slug: 'lily',
      names: { en: 'Lily' },
      active: true,
    });
    expect(activeWithout.json().fields).toEqual({ image: 'image_required' });

    const created = await call(admin, 'POST', '/api/admin/gifts.php', {
      slug: 'Lily',
      names: { en: 'Lily', de: 'Lilie', fr: '  ' },
      credits: 7,
      position: 0,
    });
    expect(created.statusCode, created.body).toBe(201);
    const gift = created.json().gift;
    expect(gift).toMatchObject({
      slug: 'lily',
      names: { en: 'Lily', de: 'Lilie' },
      image: null,
      active: false,
    });
    expect(gift.names).toEqual({ en: 'Lily', de: 'Lilie' });
    const activate = await call(admin, 'PUT', '/api/admin/gifts.php', { id: gift.id, active: true });
    expect(activate.json().fields).toEqual({ image: 'image_required' });

    // An image with a camera's EXIF (GPS, maker) is re-encoded without it.
    const photo = await sharp({ create: { width: 400, height: 300, channels: 3, background: '#c2185b' } })
      .jpeg()
      .withExif({ IFD0: { Make: 'SecretCam', Copyright: 'Someone' } })
      .toBuffer();
    expect((await sharp(photo).metadata()).exif).toBeDefined();
    const upload = await t.app.inject({
      method: 'POST',
      url: `/api/admin/gift-image.php?gift=${gift.id}`,
      headers: { cookie: admin.cookie, 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: Buffer.concat([
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="lily.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`,
        ),
        photo,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]),
    });
    expect(upload.statusCode, upload.body).toBe(200);
    const image = upload.json().gift.image as string;
    const [row] = await t.database.db.select().from(gifts).where(eq(gifts.id, gift.id));
    const stored = await t.app.deps.storage.get(row!.imageKey);
    const metadata = await sharp(stored!).metadata();
    expect(metadata).toMatchObject({ format: 'webp', width: 240, height: 240 });
    expect(metadata.exif).toBeUndefined();
    expect(image).toContain(row!.imageKey.split('/').at(-1));
    expect(await auditOf('gift.image', `gift:${gift.id}`)).toHaveLength(1);
    const notImage = await t.app.inject({
      method: 'POST',
      url: `/api/admin/gift-image.php?gift=${gift.id}`,
      headers: { cookie: admin.cookie, 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: Buffer.concat([
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="x.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`,
        ),
        Buffer.from('not an image at all'),
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]),
    });
    expect(notImage.statusCode).toBe(422);
    expect(notImage.json().error).toBe('unsupported_image');

    expect((await call(admin, 'PUT', '/api/admin/gifts.php', { id: gift.id, active: true })).statusCode).toBe(
      200,
    );
    expect(await auditOf('gift.update', `gift:${gift.id}`)).toHaveLength(1);

    // Members see the gift with its names and its own price, and pay that price.
    const member = await activeMember(t.app);
    await grantCredits(t.app, member.userId, 50, true);
    const start = (await memberGet(member, '/api/user.php')).json().user.credits as number;
    const offered = (await memberGet(member, '/api/gifts.php')).json().gifts;
    const lily = offered.find((g: { id: number }) => g.id === gift.id);
    expect(lily).toMatchObject({ slug: 'lily', names: { en: 'Lily', de: 'Lilie' }, credits: 7 });
    const rose = offered.find((g: { slug: string }) => g.slug === 'rose');
    expect(rose.names).toEqual({});
    const siteGiftCredits = rose.credits as number;
    const profile = await freshFictionalProfile(t.app);
    const sent = await t.app.inject({
      method: 'POST',
      url: '/api/chat.php',
      headers: { cookie: member.cookie },
      payload: { profile: profile.id, gift: gift.id },
    });
    expect(sent.statusCode, sent.body).toBe(201);
    expect(sent.json().credits).toBe(start - 7);
    expect(sent.json().message.gift).toMatchObject({ id: gift.id, names: { en: 'Lily', de: 'Lilie' } });

    // Back to the site's price: null.
    await call(admin, 'PUT', '/api/admin/gifts.php', { id: gift.id, credits: null });
    const again = await t.app.inject({
      method: 'POST',
      url: '/api/chat.php',
      headers: { cookie: member.cookie },
      payload: { profile: profile.id, gift: gift.id },
    });
    expect(again.json().credits).toBe(start - 7 - siteGiftCredits);
    const listed = (await call(admin, 'GET', '/api/admin/gifts.php')).json().gifts;
    expect(listed.find((g: { id: number }) => g.id === gift.id)).toMatchObject({ sent: 2, credits: null });
  });

  it('discount codes: every spec field, validation, disabling, and the use counts', async () => {
    const member = await activeMember(t.app);
    const fictional = await freshFictionalProfile(t.app);
    const invalid = await call(admin, 'POST', '/api/admin/discountcodes.php', {
      code: 'x',
      value_percentage: 120,
      expires: 'tomorrow',
      paymentmethods: ['cash'],
      country: 'Netherlands',
    });
    expect(invalid.statusCode).toBe(422);
    expect(invalid.json().fields).toMatchObject({
      code: 'invalid',
      value_percentage: 'out_of_range',
      expires: 'invalid_expiry',
      country: 'invalid',
    });
    expect(Object.keys(invalid.json().fields).some((key) => key.startsWith('paymentmethods'))).toBe(true);
    const notMember = await call(admin, 'POST', '/api/admin/discountcodes.php', {
      code: 'FICTION10',
      value_percentage: 10,
      member: fictional.id,
    });
    expect(notMember.json().fields).toEqual({ member: 'member_unknown' });
    const taken = await call(admin, 'POST', '/api/admin/discountcodes.php', {
      code: 'timebonus25',
      value_percentage: 10,
    });
    expect(taken.json().fields).toEqual({ code: 'code_taken' });

    const offer = (await memberGet(member, '/api/bundles.php')).json();
    const created = await call(admin, 'POST', '/api/admin/discountcodes.php', {
      code: 'summer-20',
      value_percentage: 20,
      country: offer.country,
      member: member.profileId,
      expires: '2099-01-01T00:00:00Z',
      currency: 'EUR',
      minimum_order_value: 100,
      validity: 'unlimited',
      paymentmethods: [offer.paymentmethods[0], offer.paymentmethods[0]],
    });
    expect(created.statusCode, created.body).toBe(201);
    const code = created.json().discountcode;
    expect(code).toMatchObject({
      code: 'SUMMER-20',
      country: offer.country,
      member: { id: member.profileId, name: 'Robin' },
      expires: '2099-01-01T00:00:00.000Z',
      expired: false,
      value_percentage: 20,
      currency: 'EUR',
      minimum_order_value: 100,
      status: 'active',
      validity: 'unlimited',
      paymentmethods: [offer.paymentmethods[0]],
      redemptions: 0,
      paid_orders: 0,
    });
    expect(await auditOf('discount.create', `discount:${code.id}`)).toHaveLength(1);

    // Used twice (unlimited), once paid and once failed: two orders, one redemption, one paid order.
    const first = await paidOrder(member, { code: 'summer-20' });
    await paidOrder(member, { code: 'SUMMER-20', pay: 'failed' });
    const [order] = await t.database.db.select().from(orders).where(eq(orders.id, first.id));
    expect(order!.amountCents).toBe(Math.round((order!.listPriceCents * 80) / 100));
    const listed = (await call(admin, 'GET', '/api/admin/discountcodes.php')).json().discountcodes;
    expect(listed.find((c: { id: number }) => c.id === code.id)).toMatchObject({
      redemptions: 1,
      paid_orders: 1,
    });

    // Another member may not use it; disabled, nobody may.
    const other = await activeMember(t.app);
    const refused = await memberGet(other, `/api/discountcode.php?code=SUMMER-20`);
    expect(refused.statusCode).toBe(404);
    const disabled = await call(admin, 'PUT', '/api/admin/discountcodes.php', {
      id: code.id,
      status: 'inactive',
    });
    expect(disabled.json().discountcode.status).toBe('inactive');
    const quote = await memberGet(
      member,
      `/api/quote.php?bundle=${offer.bundles[0].id}&paymentmethod=${offer.paymentmethods[0]}&discountcode=SUMMER-20`,
    );
    expect(quote.statusCode).toBe(404);
    expect(quote.json().error).toBe('discount_not_found');
    const [audit] = await auditOf('discount.update', `discount:${code.id}`);
    expect(audit?.detail).toMatchObject({ fields: 'status', status: 'inactive' });

    // Renaming onto another code's name is refused; clearing the member makes it anyone's.
    const renamed = await call(admin, 'PUT', '/api/admin/discountcodes.php', {
      id: code.id,
      code: 'TimeBonus25',
    });
    expect(renamed.json().fields).toEqual({ code: 'code_taken' });
    const opened = await call(admin, 'PUT', '/api/admin/discountcodes.php', {
      id: code.id,
      member: null,
      expires: null,
      status: 'active',
    });
    expect(opened.json().discountcode).toMatchObject({ member: null, expires: null, status: 'active' });
    expect((await memberGet(other, `/api/discountcode.php?code=SUMMER-20`)).statusCode).toBe(200);
    expect(
      (await call(admin, 'PUT', '/api/admin/discountcodes.php', { id: 999_999, status: 'inactive' }))
        .statusCode,
    ).toBe(404);
  });

  it('two admins adding one code at once: one gets it, the others a field error (unique index)', async () => {
    const results = await Promise.all(
      Array.from({ length: 5 }, (_, index) =>
        call(admin, 'POST', '/api/admin/discountcodes.php', {
          code: index % 2 ? 'race-code' : 'RACE-CODE',
          value_percentage: 15,
        }),
      ),
    );
    expect(results.filter((r) => r.statusCode === 201)).toHaveLength(1);
    const refused = results.filter((r) => r.statusCode === 422);
    expect(refused).toHaveLength(4);
    for (const response of refused) expect(response.json().fields).toEqual({ code: 'code_taken' });
  });

  it('orders: filters, paging, detail with webhook history and credits; a refund reverses the credits once', async () => {
    const member = await activeMember(t.app, { name: 'Olga' });
    await t.database.db.update(users).set({ credits: 0 }).where(eq(users.id, member.userId));
    const paid = await paidOrder(member);
    const failed = await paidOrder(member, { pay: 'failed' });

    const all = (await call(admin, 'GET', `/api/admin/orders.php?member=${member.profileId}`)).json();
    expect(all.total).toBe(2);
    expect(all.orders.map((o: { id: number }) => o.id)).toEqual([failed.id, paid.id]);
    expect(all.orders[1]).toMatchObject({
      status: 'completed',
      member: { id: member.profileId, name: 'Olga', email: member.email },
      provider: 'test',
      provider_payment_id: paid.payment,
      discount: null,
    });
    const completed = (
      await call(admin, 'GET', `/api/admin/orders.php?member=${member.profileId}&status=completed`)
    ).json();
    expect(completed.orders.map((o: { id: number }) => o.id)).toEqual([paid.id]);
    const method = all.orders[0].paymentmethod as string;
    const other = method === 'card' ? 'paypal' : 'card';
    const byMethod = (
      await call(admin, 'GET', `/api/admin/orders.php?member=${member.profileId}&method=${other}`)
    ).json();
    expect(byMethod.total).toBe(0);
    const site = all.orders[0].site.id as number;
    const bySite = (
      await call(admin, 'GET', `/api/admin/orders.php?member=${member.profileId}&site=${site}`)
    ).json();
    expect(bySite.total).toBe(2);
    const bySiteElse = (
      await call(admin, 'GET', `/api/admin/orders.php?member=${member.profileId}&site=${site + 1000}`)
    ).json();
    expect(bySiteElse.total).toBe(0);
    const today = new Date().toISOString().slice(0, 10);
    const inRange = (
      await call(admin, 'GET', `/api/admin/orders.php?member=${member.profileId}&from=${today}&to=${today}`)
    ).json();
    expect(inRange.total).toBe(2);
    const before = (
      await call(admin, 'GET', `/api/admin/orders.php?member=${member.profileId}&to=2020-01-01`)
    ).json();
    expect(before.total).toBe(0);
    const bad = await call(admin, 'GET', '/api/admin/orders.php?from=yesterday&status=lost');
    expect(bad.statusCode).toBe(422);
    const paged = (await call(admin, 'GET', '/api/admin/orders.php?page=1')).json();
    expect(paged.page).toBe(1);
    expect(paged.pages).toBe(Math.ceil(paged.total / 50));
    expect(paged.orders.length).toBe(Math.min(50, paged.total));

    // The webhook repeats: each report is kept in the history, the credits are booked once.
    await webhook(paid.payment);
    await webhook(paid.payment);
    const detail = await call(admin, 'GET', `/api/admin/order.php?id=${paid.id}`);
    expect(detail.statusCode, detail.body).toBe(200);
    const body = detail.json();
    expect(body).toMatchObject({ credits_granted: paid.credits, credits_reversed: 0, refundable: true });
    expect(body.order.provider_payment_id).toBe(paid.payment);
    expect(
      body.events.map(
        (e: { source: string; status_before: string; status_after: string; provider_status: string }) => [
          e.source,
          e.provider_status,
          e.status_before,
          e.status_after,
        ],
      ),
    ).toEqual([
      ['checkout', 'paid', 'pending', 'completed'],
      ['webhook', 'paid', 'completed', 'completed'],
      ['webhook', 'paid', 'completed', 'completed'],
    ]);
    const failedDetail = (await call(admin, 'GET', `/api/admin/order.php?id=${failed.id}`)).json();
    expect(failedDetail).toMatchObject({ credits_granted: 0, refundable: false });
    expect(failedDetail.events.map((e: { status_after: string }) => e.status_after)).toEqual(['failed']);

    // The refund button: reason required; the ledger reverses once however often the webhook repeats.
    const noReason = await call(admin, 'POST', '/api/admin/refund.php', { order: paid.id, reason: ' ' });
    expect(noReason.statusCode).toBe(422);
    const refund = await call(admin, 'POST', '/api/admin/refund.php', {
      order: paid.id,
      reason: 'asked nicely',
    });
    expect(refund.statusCode, refund.body).toBe(200);
    await Promise.all(Array.from({ length: 3 }, () => webhook(paid.payment)));
    const refunded = (await call(admin, 'GET', `/api/admin/order.php?id=${paid.id}`)).json();
    expect(refunded).toMatchObject({
      order: { status: 'refunded' },
      credits_granted: paid.credits,
      credits_reversed: paid.credits,
      refundable: false,
    });
    const events = refunded.events as { source: string; status_after: string; refunded: number }[];
    expect(events.slice(3).map((e) => e.source)).toEqual(['refund', 'webhook', 'webhook', 'webhook']);
    expect(events[3]).toMatchObject({ status_after: 'refunded' });
    expect(events[3]!.refunded).toBeGreaterThan(0);
    const ledger = await t.database.db
      .select()
      .from(creditLedger)
      .where(eq(creditLedger.userId, member.userId));
    expect(ledger.filter((row) => row.reason === 'refund').map((row) => row.delta)).toEqual([-paid.credits]);
    const history = await t.database.db.select().from(orderEvents).where(eq(orderEvents.orderId, paid.id));
    expect(history).toHaveLength(7);
    expect(await auditOf('order.refund', `order:${paid.id}`)).toHaveLength(1);

    expect((await call(admin, 'GET', '/api/admin/order.php?id=999999')).statusCode).toBe(404);
    const stranger = (await call(admin, 'GET', '/api/admin/orders.php?member=999999')).json();
    expect(stranger).toMatchObject({ orders: [], total: 0 });
  });

  it('orders as CSV: the filters of the list, every page, formula-safe', async () => {
    const member = await activeMember(t.app, { name: 'Piet' });
    // A name a spreadsheet would run as a formula.
    await t.database.db
      .update(profiles)
      .set({ name: '=HYPERLINK("http://x","y")' })
      .where(eq(profiles.id, member.profileId));
    const paid = await paidOrder(member);
    const failed = await paidOrder(member, { pay: 'failed' });
    const today = new Date().toISOString().slice(0, 10);
    const download = await call(
      admin,
      'GET',
      `/api/admin/orders-export.php?member=${member.profileId}&from=${today}&to=${today}`,
    );
    expect(download.statusCode, download.body).toBe(200);
    expect(download.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(download.headers['content-disposition']).toBe(
      `attachment; filename="orders-${today}-${today}-member${member.profileId}.csv"`,
    );
    const lines = download.body.split('\r\n');
    expect(lines[0]).toBe(
      'id,created_at,settled_at,status,site_id,site,member_id,member,email,country,currency,amount,list_price,discount_code,discount_percentage,bundle,credits,payment_method,provider,provider_payment_id',
    );
    expect(lines.at(-1)).toBe('');
    const rows = lines.slice(1, -1);
    expect(rows.map((line) => Number(line.split(',')[0]))).toEqual([failed.id, paid.id]);
    const detail = (await call(admin, 'GET', `/api/admin/order.php?id=${paid.id}`)).json().order;
    expect(rows[1]).toContain(`,completed,${detail.site.id},`);
    expect(rows[1]).toContain(`,${member.profileId},"'=HYPERLINK(""http://x"",""y"")",${member.email},`);
    expect(rows[1]).toContain(`,${(detail.amount / 100).toFixed(2)},`);
    expect(rows[1]!.endsWith(`,test,${paid.payment}`)).toBe(true);
    expect(rows[0]).toContain(',failed,');

    // The same filters as the list: status, method, site, dates.
    const only = async (query: string) => {
      const response = await call(
        admin,
        'GET',
        `/api/admin/orders-export.php?member=${member.profileId}&${query}`,
      );
      expect(response.statusCode, response.body).toBe(200);
      return response.body
        .split('\r\n')
        .slice(1, -1)
        .map((line) => Number(line.split(',')[0]));
    };
    expect(await only('status=completed')).toEqual([paid.id]);
    const method = detail.paymentmethod === 'card' ? 'paypal' : 'card';
    expect(await only(`method=${method}`)).toEqual([]);
    expect(await only(`site=${detail.site.id + 1000}`)).toEqual([]);
    expect(await only('to=2020-01-01')).toEqual([]);
    expect(
      (await call(admin, 'GET', '/api/admin/orders-export.php?member=999999')).body.split('\r\n'),
    ).toHaveLength(2);
    const bad = await call(admin, 'GET', '/api/admin/orders-export.php?from=yesterday');
    expect(bad.statusCode).toBe(422);
    expect(bad.json().fields).toEqual({ from: expect.any(String) });
  });
});
