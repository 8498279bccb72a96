import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { orders } from '#server/db/schema/payments.ts';
import { activateMember, signupMember } from '../../../tests/setup/members.ts';
import { signedInStaff, type TestStaff } from '../../../tests/setup/staff.ts';
import { createTestApp, type TestApp } from '../../../tests/setup/test-app.ts';

/** The rate table as the tests change it: a copy of the real one that a test may rewrite. */
const table = vi.hoisted(() => ({ rates: {} as Record<string, number> }));
vi.mock('#contract/vat.ts', async (importOriginal) => {
  const real = await importOriginal<typeof import('#contract/vat.ts')>();
  table.rates = { ...real.vatRates };
  return {
    ...real,
    vatRates: table.rates,
    vatOf: (amountCents: number, country: string) => real.vatOf(amountCents, country, table.rates),
  };
});

/**
 * Invoices (decision 059): the VAT is stored on the order when it is paid, so a later change of the
 * rate table leaves an invoice as it was; staff who see the orders open a member's invoice too.
 */
describe('invoices', () => {
  let t: TestApp;
  let member: { cookie: string; userId: number };
  let admin: TestStaff;
  let paidId: number;
  let country: string;

  const invoiceOf = (cookie: string, id: number) =>
    t.app.inject({ url: `/api/transactions.php?id=${id}`, headers: { cookie } });
  const staffInvoice = (cookie: string, id: number) =>
    t.app.inject({ url: `/api/admin/invoice.php?id=${id}`, headers: { cookie } });

  /** An order of the member's first bundle, paid through the test checkout. */
  async function paidOrder(cookie: string): Promise<number> {
    const offer = (await t.app.inject({ url: '/api/bundles.php', headers: { cookie } })).json();
    const ordered = await t.app.inject({
      method: 'POST',
      url: '/api/order.php',
      headers: { cookie },
      payload: { bundle: offer.bundles[0].id, paymentmethod: offer.paymentmethods[0] },
    });
    expect(ordered.statusCode, ordered.body).toBe(201);
    const { order, checkout_url } = ordered.json();
    const paid = await t.app.inject({
      method: 'POST',
      url: '/api/test-payment.php',
      headers: { cookie },
      payload: { payment: (checkout_url as string).split('/').at(-1), status: 'paid' },
    });
    expect(paid.statusCode, paid.body).toBe(200);
    return order.id as number;
  }

  beforeAll(async () => {
    t = await createTestApp();
    const signedUp = await signupMember(t.app);
    await activateMember(t.app, signedUp.userId);
    member = signedUp;
    admin = await signedInStaff(t.app, 'admin');
    paidId = await paidOrder(member.cookie);
    const [row] = await t.database.db.select().from(orders).where(eq(orders.id, paidId));
    country = row!.country;
  });

  afterAll(async () => {
    await t.close();
  });

  it('stores the rate and the split when the order is paid; a later rate change leaves the invoice as it was', async () => {
    const [row] = await t.database.db.select().from(orders).where(eq(orders.id, paidId));
    const rate = table.rates[country] ?? 0;
    const net = Math.round((row!.amountCents * 100) / (100 + rate));
    expect(rate).toBeGreaterThan(0);
    expect(row).toMatchObject({
      vatRateBasisPoints: Math.round(rate * 100),
      netCents: net,
      vatCents: row!.amountCents - net,
      grossCents: row!.amountCents,
    });
    const before = (await invoiceOf(member.cookie, paidId)).json().transaction;
    expect(before.vat).toEqual({ rate, net, amount: row!.amountCents - net });

    const old = table.rates[country];
    table.rates[country] = 9;
    try {
      const after = (await invoiceOf(member.cookie, paidId)).json().transaction;
      expect(after.vat).toEqual(before.vat);
      // An order paid after the change carries the new rate.
      const newer = (await invoiceOf(member.cookie, await paidOrder(member.cookie))).json().transaction;
      expect(newer.vat.rate).toBe(9);
    } finally {
      table.rates[country] = old ?? 0;
    }
  });

  it('an order paid before the rate was stored computes it with today’s table', async () => {
    const legacy = await paidOrder(member.cookie);
    await t.database.db
      .update(orders)
      .set({ vatRateBasisPoints: null, netCents: null, vatCents: null, grossCents: null })
      .where(eq(orders.id, legacy));
    const old = table.rates[country];
    table.rates[country] = 10;
    try {
      const invoice = (await invoiceOf(member.cookie, legacy)).json().transaction;
      const net = Math.round((invoice.amount * 100) / 110);
      expect(invoice.vat).toEqual({ rate: 10, net, amount: invoice.amount - net });
    } finally {
      table.rates[country] = old ?? 0;
    }
  });

  it('the database keeps the stored VAT whole: a split that does not add up is refused', async () => {
    const set = (values: Partial<typeof orders.$inferInsert>) =>
      t.database.db.update(orders).set(values).where(eq(orders.id, paidId));
    await expect(set({ vatCents: null })).rejects.toThrow();
    await expect(set({ netCents: 1, vatCents: 1, grossCents: 3 })).rejects.toThrow();
  });

  it('a member sees only their own invoice; staff who see the orders open anyone’s, others get 403', async () => {
    const other = await signupMember(t.app);
    await activateMember(t.app, other.userId);
    expect((await invoiceOf(other.cookie, paidId)).statusCode).toBe(404);

    const own = await invoiceOf(member.cookie, paidId);
    const byAdmin = await staffInvoice(admin.cookie, paidId);
    expect(byAdmin.statusCode, byAdmin.body).toBe(200);
    expect(byAdmin.json()).toEqual(own.json());

    for (const role of ['operator', 'moderator', 'lead'] as const) {
      const staff = await signedInStaff(t.app, role);
      const refused = await staffInvoice(staff.cookie, paidId);
      expect(refused.statusCode, role).toBe(403);
    }
    // A member's session is no staff session.
    const asMember = await staffInvoice(member.cookie, paidId);
    expect(asMember.statusCode).toBe(403);
    expect(asMember.json().error).toBe('staff_required');
    expect((await staffInvoice(admin.cookie, 999_999)).statusCode).toBe(404);
  });
});
