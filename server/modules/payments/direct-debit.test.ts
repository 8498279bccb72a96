import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '#server/db/schema/members.ts';
import { directDebitMandates } from '#server/db/schema/payments.ts';
import { createFakeClock } from '../../../tests/setup/fake-clock.ts';
import { activeMember } from '../../../tests/setup/members.ts';
import { createTestApp, type TestApp } from '../../../tests/setup/test-app.ts';

describe('SEPA direct debit', () => {
  let t: TestApp;
  const clock = createFakeClock();
  const texts: { to: string; text: string }[] = [];
  let gatewayDown = false;
  beforeAll(async () => {
    t = await createTestApp(
      {},
      {
        clock,
        smsSender: {
          send: async (to, text) => {
            if (gatewayDown) throw new Error('gateway answered 502');
            texts.push({ to, text });
          },
        },
      },
    );
  });
  afterAll(() => t.close());

  const start = (cookie: string, body: Record<string, unknown>) =>
    t.app.inject({
      method: 'POST',
      url: '/api/directdebit.php',
      headers: { cookie },
      payload: { account_holder: 'R. Jansen', phone: '+31 6 1234 5678', ...body },
    });
  const confirm = (cookie: string, mandate: number, code: string) =>
    t.app.inject({
      method: 'PUT',
      url: '/api/directdebit.php',
      headers: { cookie },
      payload: { mandate, code },
    });
  const lastCode = () => texts.at(-1)!.text.match(/\b(\d{6})\b/)![1]!;

  it('checks the IBAN', async () => {
    const member = await activeMember(t.app);
    const wrong = await start(member.cookie, { iban: 'NL91ABNA0417164301' });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json()).toMatchObject({
      fields: { iban: 'invalid_iban' },
      message: 'This IBAN is not valid. Please check it.',
    });
    const right = await start(member.cookie, { iban: 'nl91 abna 0417 1643 00' });
    expect(right.statusCode).toBe(201);
    expect(right.json().mandate).toMatchObject({ status: 'pending', iban: 'NL91 •••• 4300' });
    expect(texts.at(-1)).toMatchObject({ to: '+31612345678' });
    expect(texts.at(-1)!.text).toContain('Amora');
  });

  it('answers 503 sms_unavailable, translated, when the SMS gateway fails — never a 500', async () => {
    const member = await activeMember(t.app);
    gatewayDown = true;
    try {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/directdebit.php',
        headers: { cookie: member.cookie },
        payload: { account_holder: 'R. Jansen', phone: '+31 6 1234 5678', iban: 'NL91ABNA0417164300' },
      });
      expect(response.statusCode).toBe(503);
      expect(response.json()).toMatchObject({ error: 'sms_unavailable' });
      expect(response.json().message).toMatch(/try again|opnieuw/);
    } finally {
      gatewayDown = false;
    }
    const retry = await start(member.cookie, { iban: 'NL91ABNA0417164300' });
    expect(retry.statusCode).toBe(201);
  });

  it('confirms the mandate with the SMS code, which expires and allows limited tries', async () => {
    const member = await activeMember(t.app);
    const mandate = (await start(member.cookie, { iban: 'DE89370400440532013000' })).json().mandate.id;
    const code = lastCode();
    const wrong = await confirm(member.cookie, mandate, code === '000000' ? '111111' : '000000');
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json()).toMatchObject({ fields: { code: 'invalid_code' } });
    expect((await confirm(member.cookie, mandate, code)).json().mandate.status).toBe('active');

    const late = (await start(member.cookie, { iban: 'DE89370400440532013000' })).json().mandate.id;
    const lateCode = lastCode();
    clock.advanceMinutes(11);
    expect((await confirm(member.cookie, late, lateCode)).statusCode).toBe(429);

    const tries = (await start(member.cookie, { iban: 'DE89370400440532013000' })).json().mandate.id;
    const triesCode = lastCode();
    for (let i = 0; i < 5; i++)
      await confirm(member.cookie, tries, triesCode === '222222' ? '333333' : '222222');
    const locked = await confirm(member.cookie, tries, triesCode);
    expect(locked.statusCode).toBe(429);
    expect(locked.json().error).toBe('code_attempts');
  });

  it('counts SMS code tries atomically: 40 wrong codes at once are 5 tries, then the code is dead', async () => {
    const member = await activeMember(t.app);
    const mandate = (await start(member.cookie, { iban: 'DE89370400440532013000' })).json().mandate.id;
    const code = lastCode();
    const wrong = (i: number) => String((Number(code) + 1 + i) % 1_000_000).padStart(6, '0');
    const responses = await Promise.all(
      Array.from({ length: 40 }, (_, i) => confirm(member.cookie, mandate, wrong(i))),
    );
    const statuses = responses.map((response) => response.statusCode);
    // Every compared code is a counted try: exactly 5 were compared, the rest refused unseen.
    expect(statuses.filter((status) => status === 422)).toHaveLength(5);
    expect(statuses.filter((status) => status === 429)).toHaveLength(35);
    for (const response of responses.filter((r) => r.statusCode === 429)) {
      expect(response.json().error).toBe('code_attempts');
    }
    const [row] = await t.database.db
      .select()
      .from(directDebitMandates)
      .where(eq(directDebitMandates.id, mandate));
    expect(row).toMatchObject({ codeAttempts: 5, status: 'pending' });
    // The right code after that is refused as well.
    expect((await confirm(member.cookie, mandate, code)).statusCode).toBe(429);
  });

  it('never compares more than 5 codes, even with the right one in a burst of 30', async () => {
    const member = await activeMember(t.app);
    const mandate = (await start(member.cookie, { iban: 'NL91ABNA0417164300' })).json().mandate.id;
    const code = lastCode();
    const wrong = (i: number) => String((Number(code) + 1 + i) % 1_000_000).padStart(6, '0');
    const codes = Array.from({ length: 29 }, (_, i) => wrong(i));
    codes.splice(12, 0, code);
    const responses = await Promise.all(codes.map((c) => confirm(member.cookie, mandate, c)));
    const statuses = responses.map((response) => response.statusCode);
    const accepted = statuses.filter((status) => status === 200).length;
    const compared = accepted + statuses.filter((status) => status === 422).length;
    expect(compared).toBeLessThanOrEqual(5);
    // The rest were refused before any comparison: tries used up, or the mandate already active.
    expect(statuses.every((status) => [200, 404, 422, 429].includes(status))).toBe(true);
    const [row] = await t.database.db
      .select()
      .from(directDebitMandates)
      .where(eq(directDebitMandates.id, mandate));
    expect(row!.codeAttempts).toBeLessThanOrEqual(5);
    if (accepted === 1) {
      expect(responses[12]!.statusCode).toBe(200);
      expect(row!.status).toBe('active');
    } else {
      expect(accepted).toBe(0);
      expect(responses[12]!.statusCode).toBe(429);
      expect(row).toMatchObject({ status: 'pending', codeAttempts: 5 });
    }
  });

  it('refuses members blocked for direct debit, orders without a mandate and orders over the limit', async () => {
    const blocked = await activeMember(t.app);
    await t.database.db.update(users).set({ directDebitBlocked: true }).where(eq(users.id, blocked.userId));
    const refused = await start(blocked.cookie, { iban: 'NL91ABNA0417164300' });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({
      error: 'direct_debit_blocked',
      message: 'Your account is blocked for direct debit payments',
    });

    const member = await activeMember(t.app);
    const bundles = (
      await t.app.inject({ url: '/api/bundles.php', headers: { cookie: member.cookie } })
    ).json();
    const order = (bundle: number) =>
      t.app.inject({
        method: 'POST',
        url: '/api/order.php',
        headers: { cookie: member.cookie },
        payload: { bundle, paymentmethod: 'directdebit' },
      });
    expect((await order(bundles.bundles[0].id)).json()).toMatchObject({
      fields: { paymentmethod: 'mandate_required' },
    });

    const mandate = (await start(member.cookie, { iban: 'NL91ABNA0417164300' })).json().mandate.id;
    await confirm(member.cookie, mandate, lastCode());
    const biggest = bundles.bundles.at(-1).id;
    expect((await order(biggest)).statusCode).toBe(201);
    const over = await order(biggest);
    expect(over.statusCode).toBe(403);
    expect(over.json()).toMatchObject({ error: 'direct_debit_limit', message: 'Direct debit limit reached' });
  });
});
