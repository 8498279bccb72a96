import type { MollieClient } from '@mollie/api-client';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createFakeClock } from '../../../tests/setup/fake-clock.ts';
import { activeMember } from '../../../tests/setup/members.ts';
import { createTestApp, type TestApp } from '../../../tests/setup/test-app.ts';
import { createMollieProvider } from './mollie-provider.ts';
import { type createTestProvider, ProviderUnavailableError } from './providers.ts';

/** A Mollie client whose payments.get fails as given. */
function failingMollie(error: Error & { statusCode?: number }): MollieClient {
  return {
    payments: {
      get: async () => {
        throw error;
      },
    },
  } as unknown as MollieClient;
}

describe('the Mollie adapter tells "not found" from "failed"', () => {
  it('answers null for a payment Mollie does not know', async () => {
    const provider = createMollieProvider(
      'test_x',
      failingMollie(Object.assign(new Error('gone'), { statusCode: 404 })),
    );
    expect(await provider.getPayment('tr_missing')).toBeNull();
  });

  it('throws ProviderUnavailableError when Mollie or the network fails', async () => {
    const server = createMollieProvider(
      'test_x',
      failingMollie(Object.assign(new Error('bad gateway'), { statusCode: 502 })),
    );
    await expect(server.getPayment('tr_1')).rejects.toBeInstanceOf(ProviderUnavailableError);
    const network = createMollieProvider('test_x', failingMollie(new Error('ECONNRESET')));
    await expect(network.getPayment('tr_1')).rejects.toBeInstanceOf(ProviderUnavailableError);
  });
});

describe('a provider that fails is asked again', () => {
  let t: TestApp;
  const clock = createFakeClock();
  beforeAll(async () => {
    t = await createTestApp({}, { clock });
  });
  afterAll(() => t.close());

  const provider = () => t.app.deps.payments.provider as ReturnType<typeof createTestProvider>;

  async function pendingOrder(cookie: string) {
    const bundles = (await t.app.inject({ url: '/api/bundles.php', headers: { cookie } })).json();
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/order.php',
      headers: { cookie },
      payload: { bundle: bundles.bundles[0].id, paymentmethod: bundles.paymentmethods[0] },
    });
    expect(response.statusCode).toBe(201);
    const { order, checkout_url } = response.json();
    return { order, payment: String(checkout_url).split('/').at(-1)! };
  }
  const orderOf = async (cookie: string, id: number) =>
    (await t.app.inject({ url: `/api/order.php?id=${id}`, headers: { cookie } })).json().order;
  const credits = async (cookie: string) =>
    (await t.app.inject({ url: '/api/user.php', headers: { cookie } })).json().user.credits;

  it('answers the webhook 503 while the provider fails, so that the provider sends it again', async () => {
    const member = await activeMember(t.app);
    const { order, payment } = await pendingOrder(member.cookie);
    await provider().setStatus(payment, 'paid');
    const spy = vi
      .spyOn(provider(), 'getPayment')
      .mockRejectedValueOnce(new ProviderUnavailableError('test', new Error('timeout')));
    const webhook = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/payment-webhook.php',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: `id=${payment}`,
      });
    const failed = await webhook();
    expect(failed.statusCode).toBe(503);
    expect(failed.json()).toMatchObject({ error: 'provider_unavailable', message: expect.any(String) });
    expect((await orderOf(member.cookie, order.id)).status).toBe('pending');
    spy.mockRestore();

    // The provider's retry settles it.
    expect((await webhook()).statusCode).toBe(200);
    expect((await orderOf(member.cookie, order.id)).status).toBe('completed');
  });

  it('settles a pending order whose webhook never came once it is older than the re-check age', async () => {
    const member = await activeMember(t.app);
    const before = await credits(member.cookie);
    const { order, payment } = await pendingOrder(member.cookie);
    // Paid at the provider, but the webhook is lost.
    await provider().setStatus(payment, 'paid');

    clock.advanceMinutes(5);
    await t.app.deps.payments.recheckPending(15);
    expect((await orderOf(member.cookie, order.id)).status).toBe('pending');

    // The provider is down at the first re-check: nothing moves, nothing throws, it is counted.
    clock.advanceMinutes(15);
    const spy = vi.spyOn(provider(), 'getPayment').mockRejectedValue(new ProviderUnavailableError('test'));
    const down = await t.app.deps.payments.recheckPending(15);
    expect(down.failed).toBeGreaterThanOrEqual(1);
    expect((await orderOf(member.cookie, order.id)).status).toBe('pending');
    spy.mockRestore();

    const result = await t.app.deps.payments.recheckPending(15);
    expect(result.checked).toBeGreaterThanOrEqual(1);
    expect((await orderOf(member.cookie, order.id)).status).toBe('completed');
    expect(await credits(member.cookie)).toBe(before + order.credits);
    const metrics = await t.app.deps.metrics.registry.getSingleMetricAsString('job_failures_total');
    expect(metrics).toMatch(/job_failures_total\{queue="payments"\} [1-9]/);
  });
});
