import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { timeBonus } from '#contract/payments.ts';
import { vatRates } from '#contract/vat.ts';
import { bundlePrices, bundles, gifts } from '#server/db/schema/catalog.ts';
import { discountCodes, orders } from '#server/db/schema/payments.ts';
import { companies, sites } from '#server/db/schema/sites.ts';
import { activateMember, grantCredits, signupMember } from '../../../tests/setup/members.ts';
import { signedInStaff } from '../../../tests/setup/staff.ts';
import { createTestApp, type TestApp } from '../../../tests/setup/test-app.ts';

/**
 * Offers per site (decision 049): a second site in the same country as the first shows its own
 * bundles, codes and gifts and charges its own price; the first never sees them.
 */
describe('offers per site', () => {
  let t: TestApp;
  let hostB: string;
  let siteB: number;
  let ownBundle: number;
  let ownGift: number;
  let globalBundle: number;
  const code = `SITEB${process.pid}`;
  let memberA: { cookie: string; userId: number };
  let memberB: { cookie: string; userId: number };

  const call = (cookie: string, url: string, host?: string) =>
    t.app.inject({ url, headers: { cookie, ...(host ? { host } : {}) } });

  beforeAll(async () => {
    t = await createTestApp();
    const db = t.database.db;
    const [first] = await db.select().from(sites).orderBy(sites.id).limit(1);
    const [company] = await db.select({ id: companies.id }).from(companies).limit(1);
    hostB = `offers-${process.pid}-${Date.now()}.localhost`;
    const [created] = await db
      .insert(sites)
      .values({
        domain: hostB,
        name: 'Second brand',
        indexTitle: 'Second brand',
        description: '',
        countries: first!.countries,
        supportEmail: 'support@example.com',
        companyId: company!.id,
      })
      .returning({ id: sites.id });
    siteB = created!.id;
    t.app.deps.sites.invalidate();
    const [bundle] = await db
      .insert(bundles)
      .values({ siteId: siteB, credits: 77, position: 0 })
      .returning({ id: bundles.id });
    ownBundle = bundle!.id;
    await db.insert(bundlePrices).values(
      first!.countries.map((country) => ({
        bundleId: ownBundle,
        country,
        amountCents: 1234,
        currency: 'EUR',
      })),
    );
    await db
      .insert(discountCodes)
      .values({ code, siteId: siteB, valuePercentage: 10, createdAt: new Date() });
    const [gift] = await db
      .insert(gifts)
      .values({ siteId: siteB, slug: `rose-b-${process.pid}`, imageKey: 'gifts/rose.svg', credits: 9 })
      .returning({ id: gifts.id });
    ownGift = gift!.id;

    const a = await signupMember(t.app);
    await activateMember(t.app, a.userId);
    memberA = a;
    const b = await signupMember(t.app, {}, { host: hostB });
    await activateMember(t.app, b.userId);
    memberB = b;
    const shown = (await call(memberA.cookie, '/api/bundles.php')).json() as { bundles: { id: number }[] };
    globalBundle = shown.bundles[0]!.id;
  });
  afterAll(() => t.close());

  it('the second site shows only its own bundles, at its own price; the first never shows them', async () => {
    const onB = (await call(memberB.cookie, '/api/bundles.php', hostB)).json();
    expect(onB.bundles.map((bundle: { id: number; credits: number }) => [bundle.id, bundle.credits])).toEqual(
      [[ownBundle, 77]],
    );
    expect(onB.bundles[0].price).toBe(1234);
    const onA = (await call(memberA.cookie, '/api/bundles.php')).json();
    expect(onA.bundles.map((bundle: { id: number }) => bundle.id)).not.toContain(ownBundle);
    expect(onA.bundles.length).toBeGreaterThan(0);
  });

  it('an order on the second site charges its own price with its own code, and refuses the other site’s bundle', async () => {
    const bundlesB = (await call(memberB.cookie, '/api/bundles.php', hostB)).json();
    const method = bundlesB.paymentmethods[0] as string;
    const quote = await call(
      memberB.cookie,
      `/api/quote.php?bundle=${ownBundle}&paymentmethod=${method}&discountcode=${code}`,
      hostB,
    );
    expect(quote.statusCode, quote.body).toBe(200);
    const quoted = quote.json();
    expect(quoted).toMatchObject({ list_price: 1234, discount: { code, value_percentage: 10 } });
    const ordered = await t.app.inject({
      method: 'POST',
      url: '/api/order.php',
      headers: { cookie: memberB.cookie, host: hostB },
      payload: { bundle: ownBundle, paymentmethod: method, discountcode: code, amount: quoted.amount },
    });
    expect(ordered.statusCode, ordered.body).toBe(201);
    const [row] = await t.database.db.select().from(orders).where(eq(orders.id, ordered.json().order.id));
    expect(row).toMatchObject({ siteId: siteB, amountCents: quoted.amount, credits: 77 });

    const foreign = await t.app.inject({
      method: 'POST',
      url: '/api/order.php',
      headers: { cookie: memberB.cookie, host: hostB },
      payload: { bundle: globalBundle, paymentmethod: method },
    });
    expect(foreign.statusCode).toBe(422);
    expect(foreign.json()).toMatchObject({
      error: 'validation_failed',
      fields: { bundle: expect.any(String) },
    });
  });

  it('the second site’s code is unknown on the first site', async () => {
    const checked = await call(memberA.cookie, `/api/discountcode.php?code=${code}`);
    expect(checked.statusCode).toBe(404);
    expect(checked.json().error).toBe('discount_not_found');
    const onB = await call(memberB.cookie, `/api/discountcode.php?code=${code}`, hostB);
    expect(onB.statusCode, onB.body).toBe(200);
  });

  it('the second site offers only its own gifts, and a gift of another site cannot be sent there', async () => {
    const onB = (await call(memberB.cookie, '/api/gifts.php', hostB)).json();
    expect(onB.gifts.map((gift: { id: number; credits: number }) => [gift.id, gift.credits])).toEqual([
      [ownGift, 9],
    ]);
    const onA = (await call(memberA.cookie, '/api/gifts.php')).json();
    expect(onA.gifts.map((gift: { id: number }) => gift.id)).not.toContain(ownGift);

    await grantCredits(t.app, memberA.userId, 50);
    const partner = (await call(memberA.cookie, '/api/search.php')).json().profiles[0].id as number;
    const sent = await t.app.inject({
      method: 'POST',
      url: '/api/chat.php',
      headers: { cookie: memberA.cookie },
      payload: { profile: partner, gift: ownGift },
    });
    expect(sent.statusCode).toBe(404);
  });

  it('the back office sets an offer’s site, lists it with its name, and refuses a site that does not exist', async () => {
    const admin = await signedInStaff(t.app, 'admin');
    const as = (method: 'POST' | 'PUT' | 'GET', url: string, payload?: object) =>
      t.app.inject({ method, url, headers: { cookie: admin.cookie }, ...(payload ? { payload } : {}) });
    const created = await as('POST', '/api/admin/bundles.php', { credits: 55, site: siteB });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json().bundle.site).toEqual({ id: siteB, name: 'Second brand' });
    const moved = await as('PUT', '/api/admin/bundles.php', { id: created.json().bundle.id, site: null });
    expect(moved.json().bundle.site).toBeNull();
    const listed = (await as('GET', '/api/admin/discountcodes.php')).json().discountcodes;
    expect(listed.find((row: { code: string }) => row.code === code).site).toEqual({
      id: siteB,
      name: 'Second brand',
    });
    const gift = await as('POST', '/api/admin/gifts.php', {
      slug: `site-gift-${process.pid}`,
      names: { en: 'Tulip' },
      site: siteB,
    });
    expect(gift.json().gift.site).toEqual({ id: siteB, name: 'Second brand' });
    for (const [url, payload] of [
      ['/api/admin/bundles.php', { credits: 5, site: 999_999 }],
      ['/api/admin/discountcodes.php', { code: `NOSITE${process.pid}`, value_percentage: 5, site: 999_999 }],
      ['/api/admin/gifts.php', { slug: `nosite-${process.pid}`, names: { en: 'X' }, site: 999_999 }],
    ] as const) {
      const refused = await as('POST', url, payload);
      expect(refused.statusCode, url).toBe(422);
      expect(refused.json().fields).toEqual({ site: 'invalid' });
    }
  });

  it('a site’s own time bonus is what its members see, are quoted and are charged; other sites keep the default', async () => {
    const admin = await signedInStaff(t.app, 'admin');
    const set = await t.app.inject({
      method: 'PUT',
      url: '/api/admin/sites.php',
      headers: { cookie: admin.cookie },
      payload: { id: siteB, time_bonus_percentage: 40 },
    });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().site.time_bonus_percentage).toBe(40);
    const fresh = await signupMember(t.app, {}, { host: hostB });
    await activateMember(t.app, fresh.userId);
    const welcome = await call(fresh.cookie, '/api/discountcode.php', hostB);
    expect(welcome.statusCode, welcome.body).toBe(200);
    expect(welcome.json()).toMatchObject({ code: timeBonus.code, value_percentage: 40 });
    const method = (await call(fresh.cookie, '/api/bundles.php', hostB)).json().paymentmethods[0] as string;
    const quote = (
      await call(
        fresh.cookie,
        `/api/quote.php?bundle=${ownBundle}&paymentmethod=${method}&discountcode=${timeBonus.code}`,
        hostB,
      )
    ).json();
    expect(quote).toMatchObject({ list_price: 1234, amount: 740, discount: { value_percentage: 40 } });
    const ordered = await t.app.inject({
      method: 'POST',
      url: '/api/order.php',
      headers: { cookie: fresh.cookie, host: hostB },
      payload: { bundle: ownBundle, paymentmethod: method, discountcode: timeBonus.code, amount: 740 },
    });
    expect(ordered.statusCode, ordered.body).toBe(201);
    const [row] = await t.database.db.select().from(orders).where(eq(orders.id, ordered.json().order.id));
    expect(row?.amountCents).toBe(740);

    const other = await signupMember(t.app);
    await activateMember(t.app, other.userId);
    const onA = (await call(other.cookie, '/api/discountcode.php')).json();
    expect(onA).toMatchObject({ code: timeBonus.code, value_percentage: timeBonus.percentage });

    // Back to the default: the site follows the code's own percentage again.
    await t.app.inject({
      method: 'PUT',
      url: '/api/admin/sites.php',
      headers: { cookie: admin.cookie },
      payload: { id: siteB, time_bonus_percentage: null },
    });
    const later = await signupMember(t.app, {}, { host: hostB });
    await activateMember(t.app, later.userId);
    const back = (await call(later.cookie, '/api/discountcode.php', hostB)).json();
    expect(back.value_percentage).toBe(timeBonus.percentage);
  });

  it('an invoice of a paid order: the site’s company, its VAT numbers and the VAT inside the amount; only for its owner', async () => {
    const method = (await call(memberB.cookie, '/api/bundles.php', hostB)).json().paymentmethods[0] as string;
    const ordered = await t.app.inject({
      method: 'POST',
      url: '/api/order.php',
      headers: { cookie: memberB.cookie, host: hostB },
      payload: { bundle: ownBundle, paymentmethod: method },
    });
    expect(ordered.statusCode, ordered.body).toBe(201);
    const { order, checkout_url } = ordered.json();
    const paid = await t.app.inject({
      method: 'POST',
      url: '/api/test-payment.php',
      headers: { cookie: memberB.cookie, host: hostB },
      payload: { payment: (checkout_url as string).split('/').at(-1), status: 'paid' },
    });
    expect(paid.statusCode, paid.body).toBe(200);
    const [row] = await t.database.db.select().from(orders).where(eq(orders.id, order.id));
    const [company] = await t.database.db.select().from(companies).limit(1);
    const invoice = (await call(memberB.cookie, `/api/transactions.php?id=${order.id}`, hostB)).json()
      .transaction;
    const rate = vatRates[row!.country] ?? 0;
    const net = Math.round((1234 * 100) / (100 + rate));
    expect(invoice).toMatchObject({
      status: 'completed',
      amount: 1234,
      site: 'Second brand',
      company_id: company!.id,
      country: row!.country,
      vat: { rate, net, amount: 1234 - net },
      company: { name: company!.name, vat_numbers: company!.vatNumbers },
    });
    const other = await call(memberA.cookie, `/api/transactions.php?id=${order.id}`);
    expect(other.statusCode).toBe(404);
  });
});
