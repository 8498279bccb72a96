import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '#server/db/schema/members.ts';
import { directDebitMandates, discountCodes, orders, testPayments } from '#server/db/schema/payments.ts';
import { createFakeClock } from '../../../tests/setup/fake-clock.ts';
import { activeMember } from '../../../tests/setup/members.ts';
import { createTestApp, type TestApp } from '../../../tests/setup/test-app.ts';
import { discountedAmount } from './payments.service.ts';

/**
 * Money under concurrency (decision 009). The races fire parallel requests; on
 * PostgreSQL (DATABASE_URL) they prove the member row lock and the partial unique index.
 */
describe('payments under attack', () => {
  let t: TestApp;
  const clock = createFakeClock();
  beforeAll(async () => {
    t = await createTestApp({}, { clock });
    await t.database.db.insert(discountCodes).values([
      { code: 'AUDIT10', valuePercentage: 10, validity: 'unlimited', createdAt: clock.now() },
      { code: 'PAYPAL15', valuePercentage: 15, paymentmethods: ['paypal'], createdAt: clock.now() },
      { code: 'ONCE20', valuePercentage: 20, validity: 'once_per_user', createdAt: clock.now() },
    ]);
  });
  afterAll(() => t.close());

  const bundlesOf = async (cookie: string) =>
    (await t.app.inject({ url: '/api/bundles.php', headers: { cookie } })).json() as {
      bundles: { id: number; price: number; credits: number }[];
      paymentmethods: string[];
    };
  const order = (cookie: string, payload: Record<string, unknown>) =>
    t.app.inject({ method: 'POST', url: '/api/order.php', headers: { cookie }, payload });
  const quote = (cookie: string, query: Record<string, string | number>) =>
    t.app.inject({
      url: `/api/quote.php?${new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]))}`,
      headers: { cookie },
    });
  const pay = (payment: string, status: 'paid' | 'failed' | 'canceled', cookie?: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/test-payment.php',
      headers: cookie ? { cookie } : {},
      payload: { payment, status },
    });
  const paymentOf = (checkoutUrl: string) => checkoutUrl.split('/').at(-1)!;
  const ordersOf = (userId: number) => t.database.db.select().from(orders).where(eq(orders.userId, userId));
  const creditsOf = async (userId: number) =>
    (await t.database.db.select({ credits: users.credits }).from(users).where(eq(users.id, userId)))[0]!
      .credits;

  describe('direct-debit 30-day limit (item 8)', () => {
    it('accepts at most 150 € of parallel direct-debit orders: sum check and insert under the member row lock', async () => {
      const member = await activeMember(t.app);
      await t.database.db.insert(directDebitMandates).values({
        userId: member.userId,
        accountHolder: 'R. Jansen',
        iban: 'NL91ABNA0417164300',
        phone: '+31612345678',
        status: 'active',
        createdAt: clock.now(),
        confirmedAt: clock.now(),
      });
      const biggest = (await bundlesOf(member.cookie)).bundles.at(-1)!;
      expect(biggest.price).toBe(9999);
      const answers = await Promise.all(
        Array.from({ length: 10 }, () =>
          order(member.cookie, { bundle: biggest.id, paymentmethod: 'directdebit' }),
        ),
      );
      const accepted = answers.filter((answer) => answer.statusCode === 201);
      expect(accepted).toHaveLength(1);
      for (const refused of answers.filter((answer) => answer.statusCode !== 201)) {
        expect(refused.statusCode).toBe(403);
        expect(refused.json()).toMatchObject({ error: 'direct_debit_limit' });
      }
      await Promise.all(
        accepted.map((answer) => pay(paymentOf(answer.json().checkout_url), 'paid', member.cookie)),
      );
      const booked = (await ordersOf(member.userId)).filter((row) =>
        ['pending', 'completed'].includes(row.status),
      );
      expect(booked.reduce((sum, row) => sum + row.amountCents, 0)).toBeLessThanOrEqual(15_000);
    });
  });

  describe('once-per-member discount codes (item 9)', () => {
    it('reserves the code at order creation (partial unique index); a new order supersedes the open checkout, so 8 orders then 8 payments complete one at 25 % off', async () => {
      const member = await activeMember(t.app);
      const bundle = (await bundlesOf(member.cookie)).bundles[0]!;
      const before = await creditsOf(member.userId);
      const payments: string[] = [];
      for (let i = 0; i < 8; i++) {
        const answer = await order(member.cookie, {
          bundle: bundle.id,
          paymentmethod: 'card',
          discountcode: 'TIMEBONUS25',
        });
        expect(answer.statusCode).toBe(201);
        expect(answer.json().order.amount).toBe(discountedAmount(bundle.price, 25));
        payments.push(paymentOf(answer.json().checkout_url));
      }
      const paid = await Promise.all(payments.map((payment) => pay(payment, 'paid', member.cookie)));
      expect(paid.filter((answer) => answer.statusCode === 200)).toHaveLength(1);
      const completed = (await ordersOf(member.userId)).filter((row) => row.status === 'completed');
      expect(completed).toHaveLength(1);
      expect(await creditsOf(member.userId)).toBe(before + bundle.credits);
    });

    it('lets parallel orders with a once-per-member code reserve it once: at most one completes at a discount', async () => {
      const member = await activeMember(t.app);
      const bundle = (await bundlesOf(member.cookie)).bundles[0]!;
      const answers = await Promise.all(
        Array.from({ length: 8 }, () =>
          order(member.cookie, { bundle: bundle.id, paymentmethod: 'card', discountcode: 'TIMEBONUS25' }),
        ),
      );
      for (const answer of answers) expect([201, 409]).toContain(answer.statusCode);
      const created = answers.filter((answer) => answer.statusCode === 201);
      expect(created.length).toBeGreaterThan(0);
      await Promise.all(
        created.map((answer) => pay(paymentOf(answer.json().checkout_url), 'paid', member.cookie)),
      );
      const rows = await ordersOf(member.userId);
      expect(rows.filter((row) => row.status === 'completed')).toHaveLength(1);
      expect(rows.filter((row) => row.status === 'pending')).toHaveLength(0);
      const again = await order(member.cookie, {
        bundle: bundle.id,
        paymentmethod: 'card',
        discountcode: 'TIMEBONUS25',
      });
      // Used, and the welcome window closed with the first payment.
      expect(again.json()).toMatchObject({ error: expect.stringMatching(/^discount_(used|not_found)$/) });
    });

    it('frees the code when the payment fails, and keeps it held by a checkout the provider can no longer cancel', async () => {
      const member = await activeMember(t.app);
      const bundle = (await bundlesOf(member.cookie)).bundles[0]!;
      const body = { bundle: bundle.id, paymentmethod: 'card', discountcode: 'ONCE20' };
      const failed = await order(member.cookie, body);
      await pay(paymentOf(failed.json().checkout_url), 'failed', member.cookie);
      const retry = await order(member.cookie, body);
      expect(retry.statusCode).toBe(201);
      expect(retry.json().order.amount).toBe(discountedAmount(bundle.price, 20));
      // The payer pays; the webhook has not arrived yet: the provider cannot cancel a paid payment.
      await t.database.db
        .update(testPayments)
        .set({ status: 'paid' })
        .where(eq(testPayments.id, paymentOf(retry.json().checkout_url)));
      const third = await order(member.cookie, body);
      expect(third.statusCode).toBe(409);
      expect(third.json()).toMatchObject({ error: 'discount_used' });
      const rows = await ordersOf(member.userId);
      expect(rows.filter((row) => row.status === 'completed')).toHaveLength(1);
    });
  });

  describe('the checkout quote (item 13)', () => {
    const cases = [
      ['the welcome code', 'TIMEBONUS25', 'card', 25],
      ['a cleared code', '', 'card', 0],
      ['another code', 'AUDIT10', 'card', 10],
      ['a method-restricted code', 'PAYPAL15', 'paypal', 15],
    ] as const;
    for (const [name, code, method, percentage] of cases) {
      it(`quotes what the order charges for ${name}`, async () => {
        const member = await activeMember(t.app);
        const bundle = (await bundlesOf(member.cookie)).bundles[0]!;
        const query = { bundle: bundle.id, paymentmethod: method, discountcode: code };
        const quoted = await quote(member.cookie, query);
        expect(quoted.statusCode).toBe(200);
        const expected = percentage ? discountedAmount(bundle.price, percentage) : bundle.price;
        expect(quoted.json()).toMatchObject({
          bundle: bundle.id,
          list_price: bundle.price,
          amount: expected,
          paymentmethod: method,
          discount: code ? { code, value_percentage: percentage } : null,
        });
        const charged = await order(member.cookie, {
          bundle: bundle.id,
          paymentmethod: method,
          ...(code ? { discountcode: code } : {}),
          amount: quoted.json().amount,
        });
        expect(charged.statusCode).toBe(201);
        expect(charged.json().order.amount).toBe(quoted.json().amount);
        const [provider] = await t.database.db
          .select()
          .from(testPayments)
          .where(eq(testPayments.id, paymentOf(charged.json().checkout_url)));
        expect(provider!.amountCents).toBe(quoted.json().amount);
      });
    }

    it('refuses a method-restricted code for another method in the quote as in the order', async () => {
      const member = await activeMember(t.app);
      const bundle = (await bundlesOf(member.cookie)).bundles[0]!;
      const query = { bundle: bundle.id, paymentmethod: 'card', discountcode: 'PAYPAL15' };
      const quoted = await quote(member.cookie, query);
      const ordered = await order(member.cookie, { ...query });
      expect(quoted.statusCode).toBe(404);
      expect(quoted.json()).toMatchObject({ error: 'discount_not_found', reason: 'payment_method' });
      expect(ordered.json()).toEqual(quoted.json());
    });

    it('refuses an order whose amount differs from what the member was shown (409 price_changed)', async () => {
      const member = await activeMember(t.app);
      const bundle = (await bundlesOf(member.cookie)).bundles[0]!;
      const shown = (
        await quote(member.cookie, { bundle: bundle.id, paymentmethod: 'card', discountcode: 'TIMEBONUS25' })
      ).json().amount;
      clock.advanceMinutes(4 * 60 + 1); // the welcome window closes between quote and order
      const charged = await order(member.cookie, { bundle: bundle.id, paymentmethod: 'card', amount: shown });
      expect(charged.statusCode).toBe(409);
      expect(charged.json()).toMatchObject({ error: 'price_changed', amount: bundle.price });
      expect((await ordersOf(member.userId)).filter((row) => row.status === 'pending')).toHaveLength(0);
    });
  });

  describe('repeat orders (item 15)', () => {
    it('shows the bundle, price and method of a repeat order before it is charged, and charges only the confirmed amount', async () => {
      const member = await activeMember(t.app);
      const bundle = (await bundlesOf(member.cookie)).bundles[1]!;
      const first = await order(member.cookie, { bundle: bundle.id, paymentmethod: 'card' });
      await pay(paymentOf(first.json().checkout_url), 'paid', member.cookie);
      const shown = await t.app.inject({ url: '/api/repeat-order.php', headers: { cookie: member.cookie } });
      expect(shown.json()).toMatchObject({
        bundle: bundle.id,
        credits: bundle.credits,
        amount: bundle.price,
        paymentmethod: 'card',
        stored_mandate: true,
      });
      const repeat = (amount: number) =>
        t.app.inject({
          method: 'POST',
          url: '/api/repeat-order.php',
          headers: { cookie: member.cookie },
          payload: { amount },
        });
      expect((await repeat(bundle.price - 1)).json()).toMatchObject({ error: 'price_changed' });
      expect((await repeat(bundle.price)).json().order).toMatchObject({
        status: 'completed',
        amount: bundle.price,
      });
    });
  });

  describe('the test provider checkout (item 22)', () => {
    it('lets only the payer see and settle a test payment: another member and no cookie are refused', async () => {
      const payer = await activeMember(t.app);
      const stranger = await activeMember(t.app);
      const bundle = (await bundlesOf(payer.cookie)).bundles[0]!;
      const created = await order(payer.cookie, { bundle: bundle.id, paymentmethod: 'card' });
      const payment = paymentOf(created.json().checkout_url);
      const view = (cookie?: string) =>
        t.app.inject({
          url: `/api/test-payment.php?payment=${payment}`,
          headers: cookie ? { cookie } : {},
        });
      expect((await view()).statusCode).toBe(403);
      expect((await view(stranger.cookie)).statusCode).toBe(404);
      expect((await pay(payment, 'paid')).statusCode).toBe(403);
      expect((await pay(payment, 'paid', stranger.cookie)).statusCode).toBe(404);
      const [still] = await t.database.db
        .select()
        .from(orders)
        .where(and(eq(orders.userId, payer.userId), eq(orders.providerPaymentId, payment)));
      expect(still!.status).toBe('pending');
      expect((await view(payer.cookie)).json().payment).toMatchObject({ id: payment, status: 'open' });
      expect((await pay(payment, 'paid', payer.cookie)).statusCode).toBe(200);
      expect(await creditsOf(payer.userId)).toBeGreaterThanOrEqual(bundle.credits);
    });
  });
});

describe('the test checkout outside test mode (item 22)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      PAYMENT_PROVIDER: 'mollie',
      MOLLIE_API_KEY: 'test_dummydummydummydummydummydu',
    });
  });
  afterAll(() => t.close());

  it('does not exist under PAYMENT_PROVIDER=mollie', async () => {
    const member = await activeMember(t.app);
    const settle = await t.app.inject({
      method: 'POST',
      url: '/api/test-payment.php',
      headers: { cookie: member.cookie },
      payload: { payment: 'tst_0123456789abcdef0123', status: 'paid' },
    });
    expect(settle.statusCode).toBe(404);
    const view = await t.app.inject({
      url: '/api/test-payment.php?payment=tst_0123456789abcdef0123',
      headers: { cookie: member.cookie },
    });
    expect(view.statusCode).toBe(404);
  });
});
