import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { creditLedger } from '#server/db/schema/credits.ts';
import { users } from '#server/db/schema/members.ts';
import { discountCodes } from '#server/db/schema/payments.ts';
import { createFakeClock } from '../../../tests/setup/fake-clock.ts';
import { activeMember } from '../../../tests/setup/members.ts';
import { createTestApp, type TestApp } from '../../../tests/setup/test-app.ts';
import { discountedAmount } from './payments.service.ts';
import { mapMolliePayment } from './providers.ts';

describe('buying credits with the test provider', () => {
  let t: TestApp;
  const clock = createFakeClock();
  beforeAll(async () => {
    t = await createTestApp({}, { clock });
  });
  afterAll(() => t.close());

  async function order(cookie: string, body: Record<string, unknown> = {}) {
    const bundles = (await t.app.inject({ url: '/api/bundles.php', headers: { cookie } })).json();
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/order.php',
      headers: { cookie },
      payload: { bundle: bundles.bundles[0].id, paymentmethod: bundles.paymentmethods[0], ...body },
    });
    return { response, bundles };
  }
  const paymentOf = (checkoutUrl: string) => checkoutUrl.split('/').at(-1)!;
  const pay = (payment: string, status: 'paid' | 'failed' | 'canceled', cookie: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/test-payment.php',
      headers: { cookie },
      payload: { payment, status },
    });
  const me = async (cookie: string) =>
    (await t.app.inject({ url: '/api/user.php', headers: { cookie } })).json().user;

  it('lists bundles in cents with the methods of the member country', async () => {
    const member = await activeMember(t.app);
    const bundles = (
      await t.app.inject({ url: '/api/bundles.php', headers: { cookie: member.cookie } })
    ).json();
    expect(bundles.bundles.length).toBeGreaterThan(0);
    expect(bundles.bundles[0]).toMatchObject({
      credits: 25,
      price: expect.any(Number),
      currency: expect.any(String),
    });
    expect(bundles.paymentmethods.length).toBeGreaterThan(1);
  });

  it('credits a paid order once and makes the member premium, however often the webhook comes', async () => {
    const member = await activeMember(t.app);
    const before = (await me(member.cookie)).credits;
    const { response } = await order(member.cookie);
    expect(response.statusCode).toBe(201);
    const { order: created, checkout_url } = response.json();
    expect(created.status).toBe('pending');
    expect(checkout_url).toMatch(/^\/payments\/test\/tst_/);
    const payment = paymentOf(checkout_url);

    expect((await pay(payment, 'paid', member.cookie)).json()).toEqual({
      ok: true,
      redirect: `/transactions/${created.id}`,
    });
    await Promise.all(
      Array.from({ length: 5 }, () =>
        t.app.inject({
          method: 'POST',
          url: '/api/payment-webhook.php',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          payload: `id=${payment}`,
        }),
      ),
    );
    await t.app.inject({ method: 'POST', url: '/api/payment-webhook.php', payload: { id: payment } });
    const after = await me(member.cookie);
    expect(after.credits).toBe(before + created.credits);
    expect(after.paid_user).toBe(true);
    const purchases = await t.database.db
      .select()
      .from(creditLedger)
      .where(eq(creditLedger.userId, member.userId));
    expect(purchases.filter((row) => row.reason === 'purchase')).toHaveLength(1);
    expect(
      (
        await t.app.inject({ url: `/api/order.php?id=${created.id}`, headers: { cookie: member.cookie } })
      ).json().order.status,
    ).toBe('completed');
    expect((await pay(payment, 'paid', member.cookie)).statusCode).toBe(404);

    const history = (
      await t.app.inject({ url: '/api/credits.php', headers: { cookie: member.cookie } })
    ).json();
    expect(history.ledger.map((entry: { reason: string }) => entry.reason)).toEqual(['purchase', 'signup']);
    expect(history.ledger[0].balance_after).toBe(history.credits);
    expect(history.ledger.reduce((sum: number, entry: { delta: number }) => sum + entry.delta, 0)).toBe(
      history.credits,
    );
  });

  it('books nothing for failed or cancelled payments', async () => {
    const member = await activeMember(t.app);
    const before = await me(member.cookie);
    for (const status of ['failed', 'canceled'] as const) {
      const { response } = await order(member.cookie);
      await pay(paymentOf(response.json().checkout_url), status, member.cookie);
      const answer = (
        await t.app.inject({
          url: `/api/order.php?id=${response.json().order.id}`,
          headers: { cookie: member.cookie },
        })
      ).json();
      expect(answer.order.status).toBe(status === 'failed' ? 'failed' : 'cancelled');
    }
    const after = await me(member.cookie);
    expect(after.credits).toBe(before.credits);
    expect(after.paid_user).toBe(false);
  });

  it("never shows one member's order to another", async () => {
    const owner = await activeMember(t.app);
    const other = await activeMember(t.app);
    const { response } = await order(owner.cookie);
    const id = response.json().order.id;
    expect(
      (await t.app.inject({ url: `/api/order.php?id=${id}`, headers: { cookie: other.cookie } })).statusCode,
    ).toBe(404);
    expect(
      (await t.app.inject({ url: `/api/transactions.php?id=${id}`, headers: { cookie: other.cookie } }))
        .statusCode,
    ).toBe(404);
    expect((await t.app.inject({ url: `/api/order.php?id=${id}` })).statusCode).toBe(403);
  });

  it('applies discount codes by their rules: expiry, use, minimum order, method and country', async () => {
    const member = await activeMember(t.app);
    const now = clock.now();
    await t.database.db.insert(discountCodes).values([
      { code: 'SPRING10', valuePercentage: 10, createdAt: now },
      { code: 'OLD20', valuePercentage: 20, expires: new Date(now.getTime() - 1000), createdAt: now },
      { code: 'BIG30', valuePercentage: 30, minimumOrderValue: 1_000_000, createdAt: now },
      { code: 'PAYPAL15', valuePercentage: 15, paymentmethods: ['paypal'], createdAt: now },
      { code: 'ONLYUS', valuePercentage: 15, country: 'US', createdAt: now },
    ]);
    const { response, bundles } = await order(member.cookie, { discountcode: 'spring10' });
    expect(response.statusCode).toBe(201);
    expect(response.json().order.amount).toBe(discountedAmount(bundles.bundles[0].price, 10));
    await pay(paymentOf(response.json().checkout_url), 'paid', member.cookie);
    const used = await order(member.cookie, { discountcode: 'SPRING10' });
    expect(used.response.statusCode).toBe(409);
    expect(used.response.json()).toMatchObject({
      error: 'discount_used',
      message: 'This discount code has already been used.',
    });
    for (const [code, reason] of [
      ['OLD20', 'expired'],
      ['BIG30', 'minimum_order'],
      ['ONLYUS', 'country'],
      ['NOPE', 'not_found'],
    ] as const) {
      const refused = await order(member.cookie, { discountcode: code });
      expect(refused.response.statusCode, code).toBe(404);
      expect(refused.response.json()).toMatchObject({ error: 'discount_not_found', reason });
    }
    const method = await order(member.cookie, {
      discountcode: 'PAYPAL15',
      paymentmethod: bundles.paymentmethods.find((m: string) => m !== 'paypal'),
    });
    expect(method.response.json()).toMatchObject({ error: 'discount_not_found', reason: 'payment_method' });
  });

  it('repeats an order on the stored mandate without a checkout, and through a checkout otherwise', async () => {
    const member = await activeMember(t.app);
    const first = await order(member.cookie, { paymentmethod: 'card' });
    await pay(paymentOf(first.response.json().checkout_url), 'paid', member.cookie);
    const before = (await me(member.cookie)).credits;
    const repeat = await t.app.inject({
      method: 'POST',
      url: '/api/repeat-order.php',
      headers: { cookie: member.cookie },
      payload: {},
    });
    expect(repeat.statusCode).toBe(201);
    expect(repeat.json().checkout_url).toBe(`/transactions/${repeat.json().order.id}`);
    expect(repeat.json().order.status).toBe('completed');
    expect((await me(member.cookie)).credits).toBe(before + first.response.json().order.credits);

    const other = await activeMember(t.app);
    const transfer = await order(other.cookie, { paymentmethod: 'banktransfer' });
    await pay(paymentOf(transfer.response.json().checkout_url), 'paid', other.cookie);
    const again = await t.app.inject({
      method: 'POST',
      url: '/api/repeat-order.php',
      headers: { cookie: other.cookie },
      payload: {},
    });
    expect(again.json().checkout_url).toMatch(/^\/payments\/test\/tst_/);
    expect(again.json().order.status).toBe('pending');
  });

  it('offers the 25% welcome time bonus only in the first 4 hours and only to members who never paid', async () => {
    const member = await activeMember(t.app);
    const welcome = await t.app.inject({
      url: '/api/discountcode.php?welcome=true',
      headers: { cookie: member.cookie },
    });
    expect(welcome.statusCode).toBe(200);
    expect(welcome.json()).toMatchObject({
      code: 'TIMEBONUS25',
      value_percentage: 25,
      validity: 'once_per_user',
      status: 'active',
      expired: false,
    });
    const signup = new Date((await me(member.cookie)).signup_date).getTime();
    expect(new Date(welcome.json().expires).getTime() - signup).toBe(14_400_000);

    const late = await activeMember(t.app);
    clock.advanceMinutes(4 * 60 + 1);
    expect(
      (await t.app.inject({ url: '/api/discountcode.php?welcome=true', headers: { cookie: late.cookie } }))
        .statusCode,
    ).toBe(404);
    const refused = await order(late.cookie, { discountcode: 'TIMEBONUS25' });
    expect(refused.response.json()).toMatchObject({ error: 'discount_not_found' });

    const paying = await activeMember(t.app);
    await t.database.db.update(users).set({ paidUser: true }).where(eq(users.id, paying.userId));
    expect(
      (await t.app.inject({ url: '/api/discountcode.php?welcome=true', headers: { cookie: paying.cookie } }))
        .statusCode,
    ).toBe(404);
  });
});

describe('the Mollie adapter', () => {
  it('stores a customer on a first payment and charges it later with sequenceType recurring', async () => {
    const { createMollieProvider } = await import('./mollie-provider.ts');
    const calls: { customers: unknown[]; payments: Record<string, unknown>[] } = {
      customers: [],
      payments: [],
    };
    const client = {
      customers: {
        create: async (body: unknown) => {
          calls.customers.push(body);
          return { id: 'cst_8wmqcHMN4U' };
        },
      },
      payments: {
        create: async (body: Record<string, unknown>) => {
          calls.payments.push(body);
          return {
            id: `tr_${calls.payments.length}`,
            getCheckoutUrl: () => 'https://www.mollie.com/checkout/test-mode?method=creditcard',
          };
        },
      },
    };
    const mollie = createMollieProvider('test_dummy', client as never);
    const first = await mollie.createPayment({
      orderId: 1,
      amountCents: 1499,
      currency: 'EUR',
      description: 'Amora – 25 credits',
      method: 'card',
      redirectUrl: 'https://amora.example/transactions/1',
      webhookUrl: 'https://amora.example/api/payment-webhook.php',
      customer: { id: null, name: 'Amora', email: 'robin@example.com' },
    });
    expect(first).toMatchObject({ id: 'tr_1', customerId: 'cst_8wmqcHMN4U' });
    expect(calls.payments[0]).toMatchObject({
      amount: { value: '14.99', currency: 'EUR' },
      method: 'creditcard',
      customerId: 'cst_8wmqcHMN4U',
      sequenceType: 'first',
    });
    await mollie.createRecurringPayment({
      orderId: 2,
      amountCents: 1499,
      currency: 'EUR',
      description: 'again',
      webhookUrl: 'https://amora.example/api/payment-webhook.php',
      customerId: 'cst_8wmqcHMN4U',
    });
    expect(calls.payments[1]).toMatchObject({ customerId: 'cst_8wmqcHMN4U', sequenceType: 'recurring' });
    expect(calls.payments[1]).not.toHaveProperty('redirectUrl');
  });

  // Payment objects as the Mollie API documentation shows them (GET /v2/payments/:id), trimmed.
  const recorded = (status: string, extra: Record<string, unknown> = {}) =>
    ({
      resource: 'payment',
      id: 'tr_WDqYK6vllg',
      mode: 'test',
      status,
      amount: { value: '10.00', currency: 'EUR' },
      ...extra,
    }) as never;

  it('maps the payment statuses', () => {
    expect(mapMolliePayment(recorded('open')).status).toBe('pending');
    expect(mapMolliePayment(recorded('pending')).status).toBe('pending');
    expect(mapMolliePayment(recorded('authorized')).status).toBe('pending');
    expect(mapMolliePayment(recorded('paid'))).toMatchObject({
      status: 'paid',
      amountCents: 1000,
      currency: 'EUR',
    });
    expect(mapMolliePayment(recorded('failed')).status).toBe('failed');
    expect(mapMolliePayment(recorded('canceled')).status).toBe('cancelled');
    expect(mapMolliePayment(recorded('expired')).status).toBe('cancelled');
  });

  it('reads refunds and chargebacks', () => {
    const refunded = mapMolliePayment(
      recorded('paid', {
        amountRefunded: { value: '10.00', currency: 'EUR' },
        amountRemaining: { value: '0.00', currency: 'EUR' },
      }),
    );
    expect(refunded.refundedCents).toBe(1000);
    const chargedBack = mapMolliePayment(
      recorded('paid', { amountChargedBack: { value: '10.00', currency: 'EUR' } }),
    );
    expect(chargedBack.chargedBackCents).toBe(1000);
  });
});
