import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '#server/db/schema/members.ts';
import { directDebitMandates } from '#server/db/schema/payments.ts';
import { activeMember } from '../../../tests/setup/members.ts';
import { createTestApp, type TestApp } from '../../../tests/setup/test-app.ts';
import { createMollieProvider } from './mollie-provider.ts';

type Call = { method: string; url: string; body: Record<string, unknown> };

/**
 * A fake of the Mollie client's customers, customer-mandates and payments calls. The client only
 * talks HTTPS to Mollie's own certificate chain (its agent pins its CA bundle), so no loopback HTTP
 * fake can stand in; calls are recorded with the REST path they would hit.
 */
function fakeMollie() {
  const calls: Call[] = [];
  const customersByKey = new Map<string, string>();
  let mandateDown = false;
  let paymentCount = 0;
  const client = {
    customers: {
      create: async (body: Record<string, unknown>) => {
        calls.push({ method: 'POST', url: '/v2/customers', body });
        // Mollie replays the stored answer for a known idempotency key.
        const key = String(body.idempotencyKey ?? Math.random());
        if (!customersByKey.has(key)) customersByKey.set(key, `cst_fake${customersByKey.size + 1}`);
        return { id: customersByKey.get(key)! };
      },
    },
    customerMandates: {
      create: async (body: Record<string, unknown> & { customerId: string }) => {
        calls.push({ method: 'POST', url: `/v2/customers/${body.customerId}/mandates`, body });
        if (mandateDown) throw new Error('503 Service Unavailable');
        return { id: `mdt_${body.customerId}`, status: 'valid' };
      },
    },
    payments: {
      create: async (body: Record<string, unknown>) => {
        calls.push({ method: 'POST', url: '/v2/payments', body });
        paymentCount++;
        return { id: `tr_fake${paymentCount}`, getCheckoutUrl: () => null };
      },
    },
  };
  return {
    calls,
    client,
    setMandateDown: (down: boolean) => {
      mandateDown = down;
    },
  };
}

describe('the SMS-confirmed SEPA mandate at Mollie', () => {
  let t: TestApp;
  const mollie = fakeMollie();
  const texts: string[] = [];
  const apiKey = 'test_fakefakefakefakefakefakefakefake';

  beforeAll(async () => {
    t = await createTestApp(
      { PAYMENT_PROVIDER: 'mollie', MOLLIE_API_KEY: apiKey },
      {
        smsSender: { send: async (_to, text) => void texts.push(text) },
        paymentProvider: createMollieProvider(apiKey, mollie.client as never),
      },
    );
  });
  afterAll(() => t.close());

  const confirmMandate = async (cookie: string) => {
    const started = await t.app.inject({
      method: 'POST',
      url: '/api/directdebit.php',
      headers: { cookie },
      payload: { account_holder: 'R. Jansen', phone: '+31 6 1234 5678', iban: 'NL91 ABNA 0417 1643 00' },
    });
    const code = texts.at(-1)!.match(/\b(\d{6})\b/)![1]!;
    const confirmed = await t.app.inject({
      method: 'PUT',
      url: '/api/directdebit.php',
      headers: { cookie },
      payload: { mandate: started.json().mandate.id, code },
    });
    expect(confirmed.json().mandate.status).toBe('active');
    return started.json().mandate.id as number;
  };
  const order = async (cookie: string) => {
    const bundles = (await t.app.inject({ url: '/api/bundles.php', headers: { cookie } })).json();
    return t.app.inject({
      method: 'POST',
      url: '/api/order.php',
      headers: { cookie },
      payload: { bundle: bundles.bundles[0].id, paymentmethod: 'directdebit' },
    });
  };

  it('hands the confirmed IBAN and holder to the customer-mandate API and debits that mandate without a checkout', async () => {
    const member = await activeMember(t.app);
    mollie.calls.length = 0;
    const id = await confirmMandate(member.cookie);
    expect(mollie.calls.map((call) => `${call.method} ${call.url}`)).toEqual([
      'POST /v2/customers',
      'POST /v2/customers/cst_fake1/mandates',
    ]);
    expect(mollie.calls[1]!.body).toMatchObject({
      method: 'directdebit',
      consumerName: 'R. Jansen',
      consumerAccount: 'NL91ABNA0417164300',
      mandateReference: `DD-${id}`,
    });
    const [row] = await t.database.db
      .select()
      .from(directDebitMandates)
      .where(eq(directDebitMandates.id, id));
    expect(row!.providerMandateId).toBe('mdt_cst_fake1');
    const [user] = await t.database.db.select().from(users).where(eq(users.id, member.userId));
    expect(user!.paymentCustomerId).toBe('cst_fake1');

    mollie.calls.length = 0;
    const answer = await order(member.cookie);
    expect(answer.statusCode).toBe(201);
    expect(mollie.calls.map((call) => `${call.method} ${call.url}`)).toEqual(['POST /v2/payments']);
    expect(mollie.calls[0]!.body).toMatchObject({
      method: 'directdebit',
      customerId: 'cst_fake1',
      mandateId: 'mdt_cst_fake1',
      sequenceType: 'recurring',
    });
    expect(answer.json().checkout_url).toMatch(/\/transactions\/\d+$/);
  });

  it('confirms the code while Mollie is down and hands the mandate over at the next direct-debit order', async () => {
    const member = await activeMember(t.app);
    mollie.setMandateDown(true);
    const id = await confirmMandate(member.cookie);
    const [pending] = await t.database.db
      .select()
      .from(directDebitMandates)
      .where(eq(directDebitMandates.id, id));
    expect(pending!.providerMandateId).toBeNull();

    mollie.setMandateDown(false);
    mollie.calls.length = 0;
    const answer = await order(member.cookie);
    expect(answer.statusCode, answer.body).toBe(201);
    expect(mollie.calls.map((call) => `${call.method} ${call.url}`)).toEqual([
      'POST /v2/customers',
      'POST /v2/customers/cst_fake2/mandates',
      'POST /v2/payments',
    ]);
    expect(mollie.calls[2]!.body).toMatchObject({ mandateId: 'mdt_cst_fake2', sequenceType: 'recurring' });
  });

  it('hands one mandate over once when two direct-debit orders race: one customer, one mandate, both debited', async () => {
    const member = await activeMember(t.app);
    mollie.setMandateDown(true);
    const id = await confirmMandate(member.cookie);
    mollie.setMandateDown(false);
    mollie.calls.length = 0;
    const answers = await Promise.all([order(member.cookie), order(member.cookie)]);
    expect(answers.map((answer) => answer.statusCode)).toEqual([201, 201]);
    const mandateCalls = mollie.calls.filter((call) => call.url.endsWith('/mandates'));
    expect(mandateCalls.length).toBeGreaterThanOrEqual(1);
    expect(new Set(mandateCalls.map((call) => call.body.idempotencyKey))).toEqual(
      new Set([`mandate-DD-${id}`]),
    );
    expect(new Set(mandateCalls.map((call) => call.url)).size).toBe(1);
    const payments = mollie.calls.filter((call) => call.url === '/v2/payments');
    expect(payments).toHaveLength(2);
    expect(new Set(payments.map((call) => call.body.mandateId)).size).toBe(1);
    const [row] = await t.database.db
      .select()
      .from(directDebitMandates)
      .where(eq(directDebitMandates.id, id));
    expect(row!.providerMandateId).toBe(payments[0]!.body.mandateId);
  });
});
