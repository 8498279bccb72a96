import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { creditLedger } from '#server/db/schema/credits.ts';
import { users } from '#server/db/schema/members.ts';
import { orderEvents, orders } from '#server/db/schema/payments.ts';
import { staffAudit } from '#server/db/schema/staff.ts';
import { activeMember, grantCredits } from '../../../tests/setup/members.ts';
import { signedInStaff, type TestStaff } from '../../../tests/setup/staff.ts';
import { createTestApp, type TestApp } from '../../../tests/setup/test-app.ts';
import { testPooler } from '../../../tests/setup/test-database.ts';
import { createMollieProvider } from './mollie-provider.ts';
import { ProviderUnavailableError, type RefundRequest } from './providers.ts';

const onPostgres = Boolean(process.env.DATABASE_URL && process.env.REDIS_URL);

/** A member with a paid order of the first bundle, and nothing else on their balance. */
async function paidOrder(app: FastifyInstance) {
  const member = await activeMember(app);
  const [row] = await app.deps.db.select().from(users).where(eq(users.id, member.userId));
  if (row!.credits > 0) await grantCredits(app, member.userId, -row!.credits);
  const bundles = (await app.inject({ url: '/api/bundles.php', headers: { cookie: member.cookie } })).json();
  const ordered = await app.inject({
    method: 'POST',
    url: '/api/order.php',
    headers: { cookie: member.cookie },
    payload: { bundle: bundles.bundles[0].id, paymentmethod: bundles.paymentmethods[0] },
  });
  const { order, checkout_url } = ordered.json() as {
    order: { id: number; credits: number };
    checkout_url: string;
  };
  const payment = checkout_url.split('/').at(-1)!;
  const paid = await app.inject({
    method: 'POST',
    url: '/api/test-payment.php',
    headers: { cookie: member.cookie },
    payload: { payment, status: 'paid' },
  });
  expect(paid.statusCode).toBeLessThan(400);
  return { member, order, payment };
}

describe('a refund happens once at the provider', () => {
  let t: TestApp;
  let second: FastifyInstance | undefined;
  let admin: TestStaff;

  beforeAll(async () => {
    t = await createTestApp();
    if (onPostgres) {
      // A second instance on the same PostgreSQL and Redis, as behind a load balancer.
      const { buildApp } = await import('#server/app.ts');
      const { connectPostgres } = await import('#server/db/client.ts');
      second = await buildApp(t.config, {
        database: await connectPostgres(t.databaseUrl!, 5, testPooler),
        web: false,
        redisPrefix: t.redisPrefix,
      });
    }
    admin = await signedInStaff(t.app, 'admin');
  });
  afterAll(async () => {
    await second?.close();
    await t.close();
  });

  const refund = (app: FastifyInstance, order: number, reason = 'asked within 14 days') =>
    app.inject({
      method: 'POST',
      url: '/api/admin/refund.php',
      headers: { cookie: admin.cookie },
      payload: { order, reason },
    });
  const orderRow = async (id: number) =>
    (await t.database.db.select().from(orders).where(eq(orders.id, id)))[0]!;
  const refundAudits = (id: number) =>
    t.database.db
      .select()
      .from(staffAudit)
      .where(and(eq(staffAudit.action, 'order.refund'), eq(staffAudit.object, `order:${id}`)));
  const reversals = (userId: number) =>
    t.database.db
      .select()
      .from(creditLedger)
      .where(and(eq(creditLedger.userId, userId), eq(creditLedger.reason, 'refund')));

  it('ten parallel refunds (over two instances on PostgreSQL): one provider call, one event, one audit entry, nine 409s', async () => {
    const { member, order } = await paidOrder(t.app);
    const apps = second ? [t.app, second] : [t.app];
    const spies = apps.map((app) => vi.spyOn(app.deps.payments.provider, 'refundPayment'));
    try {
      const answers = await Promise.all(
        Array.from({ length: 10 }, (_, index) => refund(apps[index % apps.length]!, order.id)),
      );
      const statuses = answers.map((answer) => answer.statusCode).sort();
      expect(statuses).toEqual([200, ...Array.from({ length: 9 }, () => 409)]);
      for (const answer of answers.filter((a) => a.statusCode === 409))
        expect(answer.json().error).toBe('refund_impossible');
      expect(answers.find((a) => a.statusCode === 200)!.json()).toEqual({
        order: { id: order.id, status: 'refunded' },
        credits: 0,
      });
      expect(spies.reduce((calls, spy) => calls + spy.mock.calls.length, 0)).toBe(1);
      const call = spies.flatMap((spy) => spy.mock.calls)[0]![0] as RefundRequest;
      expect(call.idempotencyKey).toBe(`refund-order-${order.id}`);
      const events = await t.database.db.select().from(orderEvents).where(eq(orderEvents.orderId, order.id));
      expect(events.filter((event) => event.source === 'refund')).toHaveLength(1);
      expect(await refundAudits(order.id)).toHaveLength(1);
      expect((await reversals(member.userId)).map((row) => row.delta)).toEqual([-order.credits]);
      expect((await orderRow(order.id)).status).toBe('refunded');
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
  });

  it('an unreachable provider leaves the order completed, answers 503 provider_unavailable, is counted, and a retry refunds it', async () => {
    const { member, order } = await paidOrder(t.app);
    const provider = t.app.deps.payments.provider;
    const down = vi
      .spyOn(provider, 'refundPayment')
      .mockRejectedValueOnce(new ProviderUnavailableError(provider.name, new Error('connect ETIMEDOUT')));
    const before = (await t.app.deps.metrics.refundFailures.get()).values.find(
      (value) => value.labels.outcome === 'unavailable',
    )?.value;
    try {
      const failed = await refund(t.app, order.id);
      expect(failed.statusCode).toBe(503);
      expect(failed.json()).toMatchObject({ error: 'provider_unavailable', message: expect.any(String) });
      expect((await orderRow(order.id)).status).toBe('completed');
      expect(await refundAudits(order.id)).toHaveLength(0);
      expect(await reversals(member.userId)).toHaveLength(0);
      const after = (await t.app.deps.metrics.refundFailures.get()).values.find(
        (value) => value.labels.outcome === 'unavailable',
      )?.value;
      expect((after ?? 0) - (before ?? 0)).toBe(1);

      const retried = await refund(t.app, order.id);
      expect(retried.statusCode).toBe(200);
      expect(retried.json().order.status).toBe('refunded');
      // Both calls carried the same key: had the first one reached the provider, the second is its repeat.
      expect(down.mock.calls.map(([request]) => request.idempotencyKey)).toEqual([
        `refund-order-${order.id}`,
        `refund-order-${order.id}`,
      ]);
      expect(await refundAudits(order.id)).toHaveLength(1);
      expect(await reversals(member.userId)).toHaveLength(1);
    } finally {
      down.mockRestore();
    }
  });

  it('a refusal of the provider answers 409 and leaves the order completed', async () => {
    const { order } = await paidOrder(t.app);
    const refused = vi.spyOn(t.app.deps.payments.provider, 'refundPayment').mockResolvedValueOnce('refused');
    try {
      const answer = await refund(t.app, order.id);
      expect(answer.statusCode).toBe(409);
      expect(answer.json().error).toBe('refund_impossible');
      expect((await orderRow(order.id)).status).toBe('completed');
      expect(await refundAudits(order.id)).toHaveLength(0);
    } finally {
      refused.mockRestore();
    }
  });

  it('the re-check finishes a refund left in refunding (a process stopped before the provider answered)', async () => {
    const { member, order } = await paidOrder(t.app);
    // As if the process died right after taking the order into refunding, before calling the provider.
    await t.database.db
      .update(orders)
      .set({ status: 'refunding', refundRequestedAt: new Date(Date.now() - 60 * 60_000) })
      .where(eq(orders.id, order.id));
    expect((await refund(t.app, order.id)).statusCode).toBe(409);
    const spy = vi.spyOn(t.app.deps.payments.provider, 'refundPayment');
    try {
      await t.app.deps.payments.recheckPending(15);
      expect(spy).toHaveBeenCalledTimes(1);
      expect((await orderRow(order.id)).status).toBe('refunded');
      expect((await reversals(member.userId)).map((row) => row.delta)).toEqual([-order.credits]);
      // Once settled, the next re-check leaves it alone.
      await t.app.deps.payments.recheckPending(15);
      expect(spy).toHaveBeenCalledTimes(1);
    } finally {
      spy.mockRestore();
    }
  });

  const partRefund = (order: number, part: { amount_cents?: number; credits?: number }) =>
    t.app.inject({
      method: 'POST',
      url: '/api/admin/refund.php',
      headers: { cookie: admin.cookie },
      payload: { order, reason: 'half of the bundle unused', ...part },
    });
  const balanceOf = async (userId: number) =>
    (await t.database.db.select().from(users).where(eq(users.id, userId)))[0]!.credits;
  const ledgerOf = (userId: number, reason: 'refund' | 'chargeback') =>
    t.database.db
      .select()
      .from(creditLedger)
      .where(and(eq(creditLedger.userId, userId), eq(creditLedger.reason, reason)));
  /** The provider's book of the payment, with a chargeback of its whole amount on top. */
  const chargedBack = (payment: string) => {
    const provider = t.app.deps.payments.provider;
    const real = provider.getPayment.bind(provider);
    return vi.spyOn(provider, 'getPayment').mockImplementation(async (id) => {
      const found = await real(id);
      return found && id === payment ? { ...found, chargedBackCents: found.amountCents } : found;
    });
  };
  const webhook = (payment: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/payment-webhook.php',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `id=${payment}`,
    });

  it('a partial refund pays back the amount asked and takes back the credits chosen, once', async () => {
    const { member, order } = await paidOrder(t.app);
    const { amountCents } = await orderRow(order.id);
    const half = Math.floor(amountCents / 2);
    const spy = vi.spyOn(t.app.deps.payments.provider, 'refundPayment');
    try {
      const answer = await partRefund(order.id, { amount_cents: half, credits: 3 });
      expect(answer.statusCode).toBe(200);
      expect(answer.json()).toEqual({
        order: { id: order.id, status: 'refunded' },
        credits: order.credits - 3,
      });
      expect(spy).toHaveBeenCalledTimes(1);
      expect(spy.mock.calls[0]![0]).toMatchObject({
        amountCents: half,
        idempotencyKey: `refund-order-${order.id}`,
      });
      expect((await ledgerOf(member.userId, 'refund')).map((row) => row.delta)).toEqual([-3]);
      expect(await orderRow(order.id)).toMatchObject({
        status: 'refunded',
        refundCents: half,
        refundCredits: 3,
        reversedCredits: 3,
      });
      const [audit] = await refundAudits(order.id);
      expect(audit!.detail).toMatchObject({ amount_cents: half, credits: 3 });
      const again = await partRefund(order.id, { amount_cents: 1 });
      expect(again.statusCode).toBe(409);
      expect(again.json().error).toBe('refund_impossible');
      expect(spy).toHaveBeenCalledTimes(1);
      expect(await balanceOf(member.userId)).toBe(order.credits - 3);
    } finally {
      spy.mockRestore();
    }
  });

  it('a partial refund without credits takes back the same share of them, rounded down', async () => {
    const { member, order } = await paidOrder(t.app);
    const { amountCents } = await orderRow(order.id);
    const quarter = Math.floor(amountCents / 4);
    expect((await partRefund(order.id, { amount_cents: quarter })).statusCode).toBe(200);
    const share = Math.floor((order.credits * quarter) / amountCents);
    expect((await ledgerOf(member.userId, 'refund')).map((row) => row.delta)).toEqual(
      share > 0 ? [-share] : [],
    );
    expect(await balanceOf(member.userId)).toBe(order.credits - share);
  });

  it('more than was paid, or more credits than the order gave, is 422 on that field and changes nothing', async () => {
    const { member, order } = await paidOrder(t.app);
    const { amountCents } = await orderRow(order.id);
    const spy = vi.spyOn(t.app.deps.payments.provider, 'refundPayment');
    try {
      const tooMuch = await partRefund(order.id, { amount_cents: amountCents + 1 });
      expect(tooMuch.statusCode).toBe(422);
      expect(tooMuch.json()).toMatchObject({
        error: 'validation_failed',
        fields: { amount_cents: expect.any(String) },
      });
      const tooMany = await partRefund(order.id, { credits: order.credits + 1 });
      expect(tooMany.statusCode).toBe(422);
      expect(tooMany.json()).toMatchObject({ fields: { credits: expect.any(String) } });
      expect(spy).not.toHaveBeenCalled();
      expect((await orderRow(order.id)).status).toBe('completed');
      expect(await balanceOf(member.userId)).toBe(order.credits);
      expect(await refundAudits(order.id)).toHaveLength(0);
    } finally {
      spy.mockRestore();
    }
  });

  it('a chargeback reported twice takes the credits back once and flags the member', async () => {
    const { member, order, payment } = await paidOrder(t.app);
    const spy = chargedBack(payment);
    try {
      expect((await webhook(payment)).statusCode).toBeLessThan(300);
      expect((await webhook(payment)).statusCode).toBeLessThan(300);
      expect((await ledgerOf(member.userId, 'chargeback')).map((row) => row.delta)).toEqual([-order.credits]);
      expect(await balanceOf(member.userId)).toBe(0);
      const row = await orderRow(order.id);
      expect(row.status).toBe('refunded');
      expect(row.chargedBackAt).toBeInstanceOf(Date);
      const [user] = await t.database.db.select().from(users).where(eq(users.id, member.userId));
      expect(user!.chargebackAt).toBeInstanceOf(Date);
    } finally {
      spy.mockRestore();
    }
  });

  it('a chargeback after a partial refund takes back only the credits the refund left', async () => {
    const { member, order, payment } = await paidOrder(t.app);
    const { amountCents } = await orderRow(order.id);
    expect(
      (await partRefund(order.id, { amount_cents: Math.floor(amountCents / 2), credits: 2 })).statusCode,
    ).toBe(200);
    const spy = chargedBack(payment);
    try {
      await webhook(payment);
      await webhook(payment);
      expect((await ledgerOf(member.userId, 'chargeback')).map((row) => row.delta)).toEqual([
        -(order.credits - 2),
      ]);
      expect(await balanceOf(member.userId)).toBe(0);
      expect((await orderRow(order.id)).reversedCredits).toBe(order.credits);
    } finally {
      spy.mockRestore();
    }
  });

  it('an unknown order is 404', async () => {
    const answer = await refund(t.app, 2_000_000_000);
    expect(answer.statusCode).toBe(404);
  });
});

describe('the Mollie adapter refunds with an idempotency key', () => {
  function fakeRefunds(fail?: { statusCode?: number; message: string }) {
    const calls: Record<string, unknown>[] = [];
    const client = {
      paymentRefunds: {
        create: async (body: Record<string, unknown>) => {
          calls.push(body);
          if (fail) throw Object.assign(new Error(fail.message), fail);
          return { id: 're_fake1' };
        },
      },
    };
    return {
      calls,
      provider: createMollieProvider('test_fakefakefakefakefakefakefakefake', client as never),
    };
  }
  const request = { paymentId: 'tr_1', amountCents: 1499, currency: 'EUR', idempotencyKey: 'refund-order-7' };

  it('sends the amount and the key', async () => {
    const { calls, provider } = fakeRefunds();
    expect(await provider.refundPayment(request)).toBe('refunded');
    expect(calls).toEqual([
      { paymentId: 'tr_1', amount: { currency: 'EUR', value: '14.99' }, idempotencyKey: 'refund-order-7' },
    ]);
  });

  it("reads Mollie's 4xx as a refusal", async () => {
    const { provider } = fakeRefunds({
      statusCode: 422,
      message: 'The amount is higher than the amount left',
    });
    expect(await provider.refundPayment(request)).toBe('refused');
  });

  it('raises an outage or a 5xx as ProviderUnavailableError, never as a refusal', async () => {
    for (const fail of [{ statusCode: 503, message: 'Service Unavailable' }, { message: 'socket hang up' }]) {
      const { provider } = fakeRefunds(fail);
      await expect(provider.refundPayment(request)).rejects.toBeInstanceOf(ProviderUnavailableError);
    }
  });
});
