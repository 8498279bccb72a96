import type { BundlesResponse, DiscountCode, Order } from '#contract/payments.ts';
import { timeBonus } from '#contract/payments.ts';
import type { Database } from '#server/db/client.ts';
import type { UserRow } from '#server/db/schema/members.ts';
import type { discountCodes, orders } from '#server/db/schema/payments.ts';
import type { SiteRow } from '#server/db/schema/sites.ts';
import type { Clock } from '#server/lib/clock.ts';
import { AppError, NotFoundError, ValidationFailedError } from '#server/lib/errors.ts';
import type { EventBus } from '#server/lib/event-bus.ts';
import { publishToMember } from '#server/lib/member-events.ts';
import { lockUser, updateUser } from '#server/modules/accounts/accounts.repository.ts';
import { changeCredits } from '#server/modules/credits/credits.service.ts';
import { findProfileByUserId } from '#server/modules/profiles/profiles.repository.ts';
import { selectedCountry } from '#server/modules/sites/sites.service.ts';
import type { DirectDebitService } from './direct-debit.service.ts';
import { isPaymentMethod, methodsFor } from './payment-methods.ts';
import * as repo from './payments.repository.ts';
import { mandateMethods, type PaymentProvider } from './providers.ts';

type OrderRow = typeof orders.$inferSelect;
type CodeRow = typeof discountCodes.$inferSelect;

export class DiscountNotFoundError extends AppError {
  override name = 'DiscountNotFoundError';
  constructor(reason = 'not_found') {
    super(404, 'discount_not_found', { reason });
  }
}

export class DiscountUsedError extends AppError {
  override name = 'DiscountUsedError';
  constructor() {
    super(409, 'discount_used');
  }
}

export function toOrder(row: OrderRow): Order {
  return {
    id: row.id,
    status: row.status,
    bundle: row.bundleId,
    credits: row.credits,
    amount: row.amountCents,
    list_price: row.listPriceCents,
    currency: row.currency,
    paymentmethod: row.paymentMethod,
    created_at: row.createdAt.toISOString(),
    settled_at: row.settledAt?.toISOString() ?? null,
  };
}

export function discountedAmount(listPriceCents: number, percentage: number): number {
  return Math.round((listPriceCents * (100 - percentage)) / 100);
}

export class PaymentsService {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly bus: EventBus,
    readonly provider: PaymentProvider,
    private readonly directDebit?: DirectDebitService,
  ) {}

  /** The welcome time bonus code exists on every installation. */
  async ensureTimeBonusCode(): Promise<void> {
    await repo.insertDiscountCode(this.db, {
      code: timeBonus.code,
      valuePercentage: timeBonus.percentage,
      validity: 'once_per_user',
      status: 'active',
      createdAt: this.clock.now(),
    });
  }

  /** Prices and methods of the member's country (or the visitor's, when the site serves it). */
  async countryOf(member: UserRow | null, site: SiteRow, geoipCountry: string | null): Promise<string> {
    if (member) {
      const profile = await findProfileByUserId(this.db, member.id);
      if (profile && site.countries.includes(profile.country)) return profile.country;
    }
    return selectedCountry(site, geoipCountry);
  }

  async bundles(
    member: UserRow | null,
    site: SiteRow,
    geoipCountry: string | null,
  ): Promise<BundlesResponse> {
    const country = await this.countryOf(member, site, geoipCountry);
    const rows = await repo.bundlesFor(this.db, country);
    return {
      bundles: rows.map((row) => ({
        id: row.id,
        credits: row.credits,
        price: row.amountCents,
        currency: row.currency,
      })),
      paymentmethods: methodsFor(country),
      country,
    };
  }

  private timeBonusOpen(member: UserRow): boolean {
    const age = (this.clock.now().getTime() - member.signupDate.getTime()) / 1000;
    return !member.paidUser && age >= 0 && age < timeBonus.windowSeconds;
  }

  toDiscountCode(row: CodeRow, member: UserRow): DiscountCode {
    const expires =
      row.code === timeBonus.code
        ? new Date(member.signupDate.getTime() + timeBonus.windowSeconds * 1000)
        : row.expires;
    return {
      code: row.code,
      country: row.country,
      user_id: row.userId,
      expires: expires?.toISOString() ?? null,
      value_percentage: row.valuePercentage,
      currency: row.currency,
      minimum_order_value: row.minimumOrderValue,
      status: row.status,
      validity: row.validity,
      expired: expires !== null && expires <= this.clock.now(),
      paymentmethods: row.paymentmethods,
    };
  }

  /** A code this member may use for this order (spec §5: "not found" or "already used"). */
  async validDiscount(
    member: UserRow,
    code: string,
    order: { country: string; currency?: string; amountCents?: number; method?: string },
  ): Promise<CodeRow> {
    const row = await repo.findDiscountCode(this.db, code);
    const now = this.clock.now();
    if (!row || row.status !== 'active') throw new DiscountNotFoundError();
    if (row.code === timeBonus.code && !this.timeBonusOpen(member))
      throw new DiscountNotFoundError('expired');
    if (row.expires && row.expires <= now) throw new DiscountNotFoundError('expired');
    if (row.userId !== null && row.userId !== member.id) throw new DiscountNotFoundError();
    if (row.country && row.country !== order.country) throw new DiscountNotFoundError('country');
    if (row.currency && order.currency && row.currency !== order.currency)
      throw new DiscountNotFoundError('currency');
    if (order.amountCents !== undefined && order.amountCents < row.minimumOrderValue)
      throw new DiscountNotFoundError('minimum_order');
    if (order.method && row.paymentmethods.length > 0 && !row.paymentmethods.includes(order.method)) {
      throw new DiscountNotFoundError('payment_method');
    }
    if (row.validity === 'once_per_user' && (await repo.redemptionsBy(this.db, row.id, member.id)) > 0)
      throw new DiscountUsedError();
    return row;
  }

  /** The active code: the time bonus while it runs (first 4 hours, never paid), else nothing. */
  async welcomeCode(member: UserRow): Promise<DiscountCode | null> {
    if (!this.timeBonusOpen(member)) return null;
    const row = await repo.findDiscountCode(this.db, timeBonus.code);
    if (!row || (await repo.redemptionsBy(this.db, row.id, member.id)) > 0) return null;
    return this.toDiscountCode(row, member);
  }

  async createOrder(
    member: UserRow,
    site: SiteRow,
    input: { bundle: number; paymentmethod: string; discountcode?: string | undefined },
    context: { geoipCountry: string | null; baseUrl: string },
  ): Promise<{ order: Order; checkout_url: string }> {
    const country = await this.countryOf(member, site, context.geoipCountry);
    const bundle = (await repo.bundlesFor(this.db, country)).find(
      (candidate) => candidate.id === input.bundle,
    );
    if (!bundle) throw new ValidationFailedError({ bundle: 'invalid' });
    if (!isPaymentMethod(input.paymentmethod) || !methodsFor(country).includes(input.paymentmethod)) {
      throw new ValidationFailedError({ paymentmethod: 'invalid' });
    }
    const code = input.discountcode
      ? await this.validDiscount(member, input.discountcode, {
          country,
          currency: bundle.currency,
          amountCents: bundle.amountCents,
          method: input.paymentmethod,
        })
      : undefined;
    const amountCents = code
      ? discountedAmount(bundle.amountCents, code.valuePercentage)
      : bundle.amountCents;
    if (input.paymentmethod === 'directdebit') await this.directDebit?.assertCanPay(member, amountCents);
    const order = await repo.insertOrder(this.db, {
      userId: member.id,
      siteId: site.id,
      bundleId: bundle.id,
      credits: bundle.credits,
      amountCents,
      listPriceCents: bundle.amountCents,
      currency: bundle.currency,
      country,
      paymentMethod: input.paymentmethod,
      discountCodeId: code?.id ?? null,
      provider: this.provider.name,
      createdAt: this.clock.now(),
    });
    const payment = await this.provider.createPayment({
      orderId: order.id,
      amountCents,
      currency: bundle.currency,
      description: `${site.name} – ${bundle.credits} credits (#${order.id})`,
      method: input.paymentmethod,
      redirectUrl: `${context.baseUrl}/transactions/${order.id}`,
      webhookUrl: `${context.baseUrl}/api/payment-webhook.php`,
      ...((mandateMethods as readonly string[]).includes(input.paymentmethod) && member.email
        ? { customer: { id: member.paymentCustomerId, name: site.name, email: member.email } }
        : {}),
    });
    if (payment.customerId && payment.customerId !== member.paymentCustomerId) {
      await updateUser(this.db, member.id, { paymentCustomerId: payment.customerId });
    }
    await repo.setProviderPayment(this.db, order.id, payment.id);
    return { order: toOrder({ ...order, providerPaymentId: payment.id }), checkout_url: payment.checkoutUrl };
  }

  /**
   * The last completed bundle again, with the last method: charged on the stored mandate without a
   * checkout where the method left one, else through a normal checkout.
   */
  async repeatOrder(
    member: UserRow,
    site: SiteRow,
    context: { geoipCountry: string | null; baseUrl: string },
  ) {
    const last = await repo.lastCompletedOrder(this.db, member.id);
    if (!last) throw new NotFoundError();
    const customerId = member.paymentCustomerId;
    if (!customerId || !(mandateMethods as readonly string[]).includes(last.paymentMethod)) {
      return this.createOrder(
        member,
        site,
        { bundle: last.bundleId, paymentmethod: last.paymentMethod },
        context,
      );
    }
    const country = await this.countryOf(member, site, context.geoipCountry);
    const bundle = (await repo.bundlesFor(this.db, country)).find(
      (candidate) => candidate.id === last.bundleId,
    );
    if (!bundle) throw new NotFoundError();
    if (last.paymentMethod === 'directdebit')
      await this.directDebit?.assertCanPay(member, bundle.amountCents);
    const order = await repo.insertOrder(this.db, {
      userId: member.id,
      siteId: site.id,
      bundleId: bundle.id,
      credits: bundle.credits,
      amountCents: bundle.amountCents,
      listPriceCents: bundle.amountCents,
      currency: bundle.currency,
      country,
      paymentMethod: last.paymentMethod,
      provider: this.provider.name,
      createdAt: this.clock.now(),
    });
    const payment = await this.provider.createRecurringPayment({
      orderId: order.id,
      amountCents: bundle.amountCents,
      currency: bundle.currency,
      description: `${site.name} – ${bundle.credits} credits (#${order.id})`,
      webhookUrl: `${context.baseUrl}/api/payment-webhook.php`,
      customerId,
    });
    await repo.setProviderPayment(this.db, order.id, payment.id);
    await this.settle(payment.id);
    const settled = await repo.findOrder(this.db, order.id);
    return { order: toOrder(settled ?? order), checkout_url: `/transactions/${order.id}` };
  }

  async order(member: UserRow, orderId: number): Promise<Order> {
    const row = await repo.findOrder(this.db, orderId);
    if (!row || row.userId !== member.id) throw new NotFoundError();
    return toOrder(row);
  }

  async orders(member: UserRow): Promise<Order[]> {
    return (await repo.ordersOf(this.db, member.id)).map(toOrder);
  }

  /**
   * The one settlement path of every provider (webhook and test checkout): re-fetch the payment,
   * then, under a lock on the order, book the credits once (the ledger reference is the payment id),
   * make the member premium, or reverse a refund or chargeback.
   */
  async settle(providerPaymentId: string): Promise<void> {
    const payment = await this.provider.getPayment(providerPaymentId);
    if (!payment) return;
    const reference = `${this.provider.name}:${payment.id}`;
    const outcome = await this.db.transaction(async (tx) => {
      const order = await repo.lockOrderByPayment(tx, this.provider.name, payment.id);
      if (!order) return null;
      const now = this.clock.now();
      if (order.status === 'pending' && payment.status === 'paid') {
        if (payment.amountCents !== order.amountCents || payment.currency !== order.currency) {
          await repo.updateOrder(tx, order.id, { status: 'failed', settledAt: now });
          return null;
        }
        const balance = await changeCredits(tx, {
          userId: order.userId,
          delta: order.credits,
          reason: 'purchase',
          reference,
          at: now,
        });
        await repo.updateOrder(tx, order.id, { status: 'completed', settledAt: now });
        await updateUser(tx, order.userId, { paidUser: true });
        if (order.discountCodeId)
          await repo.insertRedemption(tx, order.discountCodeId, order.userId, order.id, now);
        return balance === null ? null : { userId: order.userId, balance };
      }
      if (order.status === 'pending' && (payment.status === 'failed' || payment.status === 'cancelled')) {
        await repo.updateOrder(tx, order.id, { status: payment.status, settledAt: now });
        return null;
      }
      const reversed =
        payment.chargedBackCents > 0
          ? 'chargeback'
          : payment.refundedCents >= order.amountCents
            ? 'refund'
            : null;
      if (order.status === 'completed' && reversed) {
        const user = await lockUser(tx, order.userId);
        const take = Math.min(order.credits, user?.credits ?? 0);
        const balance = await changeCredits(tx, {
          userId: order.userId,
          delta: -take,
          reason: reversed,
          reference,
          at: now,
        });
        await repo.updateOrder(tx, order.id, { status: 'refunded' });
        return balance === null ? null : { userId: order.userId, balance };
      }
      return null;
    });
    if (outcome)
      await publishToMember(this.bus, outcome.userId, { type: 'credits', credits: outcome.balance });
  }
}
