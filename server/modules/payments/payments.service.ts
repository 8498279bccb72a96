import { randomInt } from 'node:crypto';
import type { Transaction } from '#contract/endpoints/payments.ts';
import type { BundlesResponse, DiscountCode, Order, Quote } from '#contract/payments.ts';
import { timeBonus } from '#contract/payments.ts';
import type { Database, Executor } from '#server/db/client.ts';
import type { UserRow } from '#server/db/schema/members.ts';
import type { discountCodes, OrderEventSource, orders } from '#server/db/schema/payments.ts';
import type { SiteRow } from '#server/db/schema/sites.ts';
import type { Clock } from '#server/lib/clock.ts';
import { AppError, NotFoundError, ValidationFailedError } from '#server/lib/errors.ts';
import type { EventBus } from '#server/lib/event-bus.ts';
import { publishToMember } from '#server/lib/member-events.ts';
import {
  flagChargeback,
  lockUser,
  markPaidUser,
  setPaymentCustomer,
} from '#server/modules/accounts/accounts.service.ts';
import { announceSessionsChanged } from '#server/modules/accounts/session-cache.ts';
import { changeCredits } from '#server/modules/credits/credits.service.ts';
import { findProfileByUserId } from '#server/modules/profiles/profiles.service.ts';
import { type SiteDirectory, selectedCountry } from '#server/modules/sites/sites.service.ts';
import { recordFirstPurchase } from '#server/modules/tracking/attribution.ts';
import type { DirectDebitService } from './direct-debit.service.ts';
import { invoiceOf, vatAtPayment } from './invoice.ts';
import { isPaymentMethod, methodsFor, type PaymentMethod } from './payment-methods.ts';
import * as repo from './payments.repository.ts';
import { mandateMethods, type PaymentProvider, ProviderUnavailableError } from './providers.ts';

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

/** The member confirmed another amount than the order would charge (e.g. the welcome window closed). */
export class PriceChangedError extends AppError {
  override name = 'PriceChangedError';
  constructor(amount: number) {
    super(409, 'price_changed', { amount });
  }
}

/** The order cannot be refunded: not completed (a refund of it runs or ran already), or the provider refused. */
export class RefundImpossibleError extends AppError {
  override name = 'RefundImpossibleError';
  constructor() {
    super(409, 'refund_impossible');
  }
}

/**
 * What a provider report reverses on a locked order, once: a chargeback takes back the credits no
 * refund took yet (the first report of it; a replay finds `charged_back_at` set); a refund the
 * provider booked takes back the credits staff chose (all of them for a whole refund, also one made
 * in the provider's dashboard).
 */
function reversalOf(
  order: OrderRow,
  payment: { refundedCents: number; chargedBackCents: number },
): { reason: 'refund' | 'chargeback'; credits: number } | null {
  const open = order.status === 'completed' || order.status === 'refunding';
  if (payment.chargedBackCents > 0 && !order.chargedBackAt && (open || order.status === 'refunded'))
    return { reason: 'chargeback', credits: Math.max(order.credits - order.reversedCredits, 0) };
  if (order.status === 'refunding' && payment.refundedCents >= (order.refundCents ?? order.amountCents))
    return { reason: 'refund', credits: order.refundCredits ?? order.credits };
  if (order.status === 'completed' && payment.refundedCents >= order.amountCents)
    return { reason: 'refund', credits: order.credits };
  return null;
}

/** The idempotency key of an order's refund: every retry of it is the same request to the provider. */
const refundKey = (orderId: number) => `refund-order-${orderId}`;

/** A unique violation of the named constraint, however the driver wraps it (pg, PGlite, drizzle). */
function isUniqueViolation(error: unknown, constraint: string): boolean {
  let cause: unknown = error;
  for (let depth = 0; depth < 5 && typeof cause === 'object' && cause !== null; depth++) {
    const found = cause as { code?: unknown; constraint?: unknown; cause?: unknown };
    if (found.code === '23505') return found.constraint === undefined || found.constraint === constraint;
    cause = found.cause;
  }
  return false;
}

type PricedOrder = {
  country: string;
  bundle: { id: number; credits: number; amountCents: number; currency: string };
  method: PaymentMethod;
  code: CodeRow | undefined;
  amountCents: number;
};

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
    const rows = await repo.bundlesFor(this.db, country, site.id);
    return {
      bundles: rows.map((row) => ({
        id: row.id,
        credits: row.credits,
        price: row.amountCents,
        currency: row.currency,
        badge: row.badge,
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

  /**
   * The code as it applies on this site: the time bonus takes the site's own percentage when it
   * has one, else the code's (every site's default, decision 050).
   */
  private onSite(row: CodeRow, site: SiteRow): CodeRow {
    if (row.code !== timeBonus.code || site.timeBonusPercentage === null) return row;
    return { ...row, valuePercentage: site.timeBonusPercentage };
  }

  /** A code this member may use for this order (spec §5: "not found" or "already used"). */
  async validDiscount(
    member: UserRow,
    site: SiteRow,
    code: string,
    order: { country: string; currency?: string; amountCents?: number; method?: string },
  ): Promise<CodeRow> {
    const found = await repo.findDiscountCode(this.db, code);
    const row = found && this.onSite(found, site);
    const now = this.clock.now();
    if (row?.status !== 'active') throw new DiscountNotFoundError();
    if (row.code === timeBonus.code && !this.timeBonusOpen(member))
      throw new DiscountNotFoundError('expired');
    if (row.expires && row.expires <= now) throw new DiscountNotFoundError('expired');
    if (row.userId !== null && row.userId !== member.id) throw new DiscountNotFoundError();
    if (row.siteId !== null && row.siteId !== member.siteId) throw new DiscountNotFoundError();
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

  /**
   * The code the checkout fills in: the time bonus while it runs (first 4 hours, never paid), else
   * the member's own open personal code (a win-back offer), else nothing.
   */
  async welcomeCode(member: UserRow, site: SiteRow): Promise<DiscountCode | null> {
    if (this.timeBonusOpen(member)) {
      const row = await repo.findDiscountCode(this.db, timeBonus.code);
      if (row && (await repo.redemptionsBy(this.db, row.id, member.id)) === 0)
        return this.toDiscountCode(this.onSite(row, site), member);
    }
    const personal = await repo.openPersonalCode(this.db, member.id, this.clock.now());
    return personal ? this.toDiscountCode(personal, member) : null;
  }

  /**
   * What an order of this bundle, method and code costs the member: the one price computation of
   * the quote (what the checkout shows) and of the order (what is charged).
   */
  async price(
    member: UserRow,
    site: SiteRow,
    input: { bundle: number; paymentmethod: string; discountcode?: string | undefined },
    geoipCountry: string | null,
  ): Promise<PricedOrder> {
    const country = await this.countryOf(member, site, geoipCountry);
    const bundle = (await repo.bundlesFor(this.db, country, site.id)).find(
      (candidate) => candidate.id === input.bundle,
    );
    if (!bundle) throw new ValidationFailedError({ bundle: 'invalid' });
    const method = input.paymentmethod;
    if (!isPaymentMethod(method) || !methodsFor(country).includes(method)) {
      throw new ValidationFailedError({ paymentmethod: 'invalid' });
    }
    const code = input.discountcode?.trim()
      ? await this.validDiscount(member, site, input.discountcode, {
          country,
          currency: bundle.currency,
          amountCents: bundle.amountCents,
          method,
        })
      : undefined;
    const amountCents = code
      ? discountedAmount(bundle.amountCents, code.valuePercentage)
      : bundle.amountCents;
    return { country, bundle, method, code, amountCents };
  }

  async quote(
    member: UserRow,
    site: SiteRow,
    input: { bundle: number; paymentmethod: string; discountcode?: string | undefined },
    geoipCountry: string | null,
  ): Promise<Quote> {
    const priced = await this.price(member, site, input, geoipCountry);
    return {
      bundle: priced.bundle.id,
      credits: priced.bundle.credits,
      paymentmethod: priced.method,
      list_price: priced.bundle.amountCents,
      amount: priced.amountCents,
      currency: priced.bundle.currency,
      discount: priced.code
        ? { code: priced.code.code, value_percentage: priced.code.valuePercentage }
        : null,
    };
  }

  /**
   * A member's checkout left open with a once-per-member code holds the code. A new order with the
   * code supersedes it where the provider can still cancel that payment (then it can never be paid).
   */
  private async releaseAbandoned(member: UserRow, codeId: number): Promise<void> {
    for (const held of await repo.pendingOrdersHolding(this.db, codeId, member.id)) {
      if (!held.providerPaymentId) {
        await repo.cancelPendingOrder(this.db, held.id, this.clock.now());
      } else {
        // Cancelled: settles as cancelled. Not cancelable (paid meanwhile, say): settles as it stands.
        await this.provider.cancelPayment(held.providerPaymentId);
        await this.settle(held.providerPaymentId, 'cancel');
      }
    }
  }

  /**
   * Under the member's row lock: the direct-debit 30-day sum and the order insert are one
   * transaction, and a once-per-member code is reserved by the order (partial unique index).
   */
  private async insertOrderLocked(
    member: UserRow,
    order: typeof orders.$inferInsert,
    expectedAmountCents?: number,
  ): Promise<OrderRow> {
    try {
      return await this.db.transaction(async (tx) => {
        const locked = await lockUser(tx, member.id);
        if (!locked) throw new NotFoundError();
        if (order.paymentMethod === 'directdebit')
          await this.directDebit?.assertCanPay(locked, order.amountCents, tx);
        if (expectedAmountCents !== undefined && expectedAmountCents !== order.amountCents)
          throw new PriceChangedError(order.amountCents);
        return repo.insertOrder(tx, order);
      });
    } catch (error) {
      if (isUniqueViolation(error, 'orders_discount_once_unique')) throw new DiscountUsedError();
      throw error;
    }
  }

  async createOrder(
    member: UserRow,
    site: SiteRow,
    input: {
      bundle: number;
      paymentmethod: string;
      discountcode?: string | undefined;
      amount?: number | undefined;
    },
    context: { geoipCountry: string | null; baseUrl: string },
  ): Promise<{ order: Order; checkout_url: string }> {
    let priced = await this.price(member, site, input, context.geoipCountry);
    if (priced.code?.validity === 'once_per_user') {
      await this.releaseAbandoned(member, priced.code.id);
      priced = await this.price(member, site, input, context.geoipCountry);
    }
    const { bundle, code, amountCents, country } = priced;
    const order = await this.insertOrderLocked(
      member,
      {
        userId: member.id,
        siteId: site.id,
        bundleId: bundle.id,
        credits: bundle.credits,
        amountCents,
        listPriceCents: bundle.amountCents,
        currency: bundle.currency,
        country,
        paymentMethod: priced.method,
        discountCodeId: code?.id ?? null,
        discountReserved: code?.validity === 'once_per_user',
        provider: this.provider.name,
        createdAt: this.clock.now(),
      },
      input.amount,
    );
    // Direct debit through a provider with a mandate API: the SMS-confirmed mandate is debited, no checkout.
    const sepa =
      priced.method === 'directdebit' ? await this.directDebit?.providerMandate(member) : undefined;
    const payment = await this.provider.createPayment({
      orderId: order.id,
      amountCents,
      currency: bundle.currency,
      description: `${site.name} – ${bundle.credits} credits (#${order.id})`,
      method: priced.method,
      redirectUrl: `${context.baseUrl}/transactions/${order.id}`,
      webhookUrl: `${context.baseUrl}/api/payment-webhook.php`,
      ...(sepa && member.email
        ? {
            customer: { id: sepa.customerId, name: site.name, email: member.email },
            mandateId: sepa.mandateId,
          }
        : (mandateMethods as readonly string[]).includes(priced.method) && member.email
          ? { customer: { id: member.paymentCustomerId, name: site.name, email: member.email } }
          : {}),
    });
    if (payment.customerId && payment.customerId !== member.paymentCustomerId) {
      await setPaymentCustomer(this.db, member.id, payment.customerId);
    }
    await repo.setProviderPayment(this.db, order.id, payment.id);
    return { order: toOrder({ ...order, providerPaymentId: payment.id }), checkout_url: payment.checkoutUrl };
  }

  /** What a repeat order would buy and charge, shown before the member confirms it. */
  async repeatQuote(
    member: UserRow,
    site: SiteRow,
    geoipCountry: string | null,
  ): Promise<Quote & { stored_mandate: boolean }> {
    const last = await repo.lastCompletedOrder(this.db, member.id);
    if (!last) throw new NotFoundError();
    const quote = await this.quote(
      member,
      site,
      { bundle: last.bundleId, paymentmethod: last.paymentMethod },
      geoipCountry,
    );
    return {
      ...quote,
      stored_mandate:
        member.paymentCustomerId !== null &&
        (mandateMethods as readonly string[]).includes(last.paymentMethod),
    };
  }

  /**
   * The last completed bundle again, with the last method: charged on the stored mandate without a
   * checkout where the method left one, else through a normal checkout.
   */
  async repeatOrder(
    member: UserRow,
    site: SiteRow,
    context: { geoipCountry: string | null; baseUrl: string },
    expectedAmountCents?: number,
  ) {
    const last = await repo.lastCompletedOrder(this.db, member.id);
    if (!last) throw new NotFoundError();
    const customerId = member.paymentCustomerId;
    if (!customerId || !(mandateMethods as readonly string[]).includes(last.paymentMethod)) {
      return this.createOrder(
        member,
        site,
        { bundle: last.bundleId, paymentmethod: last.paymentMethod, amount: expectedAmountCents },
        context,
      );
    }
    const country = await this.countryOf(member, site, context.geoipCountry);
    const bundle = (await repo.bundlesFor(this.db, country, site.id)).find(
      (candidate) => candidate.id === last.bundleId,
    );
    if (!bundle) throw new NotFoundError();
    const order = await this.insertOrderLocked(
      member,
      {
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
      },
      expectedAmountCents,
    );
    const payment = await this.provider.createRecurringPayment({
      orderId: order.id,
      amountCents: bundle.amountCents,
      currency: bundle.currency,
      description: `${site.name} – ${bundle.credits} credits (#${order.id})`,
      webhookUrl: `${context.baseUrl}/api/payment-webhook.php`,
      customerId,
    });
    await repo.setProviderPayment(this.db, order.id, payment.id);
    await this.settle(payment.id, 'recurring');
    const settled = await repo.findOrder(this.db, order.id);
    return { order: toOrder(settled ?? order), checkout_url: `/transactions/${order.id}` };
  }

  async order(member: UserRow, orderId: number): Promise<Order> {
    const row = await repo.findOrder(this.db, orderId);
    if (!row || row.userId !== member.id) throw new NotFoundError();
    return toOrder(row);
  }

  /** An order as its invoice reads it: the member's own only (anyone else's is 404). */
  async invoice(member: UserRow, orderId: number, sites: SiteDirectory): Promise<Transaction> {
    const row = await repo.findOrder(this.db, orderId);
    if (!row || row.userId !== member.id) throw new NotFoundError();
    return invoiceOf(sites, row);
  }

  /** Any member's order as its invoice reads it, for staff (the caller checks the right). */
  async invoiceForStaff(orderId: number, sites: SiteDirectory): Promise<Transaction> {
    const row = await repo.findOrder(this.db, orderId);
    if (!row) throw new NotFoundError();
    return invoiceOf(sites, row);
  }

  /** The order a provider payment pays (test checkout: to check the payer). */
  async orderOfPayment(providerPaymentId: string): Promise<OrderRow | undefined> {
    return repo.findOrderByPayment(this.db, this.provider.name, providerPaymentId);
  }

  async orders(member: UserRow): Promise<Order[]> {
    return (await repo.ordersOf(this.db, member.id)).map(toOrder);
  }

  /**
   * Pending orders older than `olderThanMinutes` are fetched from the provider again through the one
   * settlement path: a webhook the provider gave up on (or that never arrived) still settles the order.
   * Refunds left unsettled as long are checked the same way.
   * Returns how many were checked and how many of those the provider did not answer.
   */
  async recheckPending(olderThanMinutes: number, limit = 100): Promise<{ checked: number; failed: number }> {
    const before = new Date(this.clock.now().getTime() - olderThanMinutes * 60_000);
    const ids = await repo.pendingPaymentsBefore(this.db, this.provider.name, before, limit);
    let failed = 0;
    for (const id of ids) {
      try {
        await this.settle(id, 'recheck');
      } catch (error) {
        failed++;
        this.onRecheckFailure?.(id, error);
      }
    }
    const refunds = await this.recheckRefunds(before, limit);
    return { checked: ids.length + refunds.checked, failed: failed + refunds.failed };
  }

  /**
   * Refunds a completed order, in full or in part, exactly once: the order moves to `refunding` (with
   * the amount and the credits to take back) by a conditional update before the provider is called,
   * so of parallel requests (on any number of instances) one reaches the provider and the rest get
   * 409 refund_impossible. The provider call carries the order's idempotency key; a refusal or an
   * unreachable provider puts the order back to `completed` for staff to retry (the key makes a
   * retry safe if the first call did go through). The credits are taken back by the one settlement
   * path, as the provider's webhook would. A part without `credits` takes back the same share of
   * the order's credits, rounded down.
   */
  async refundOrder(
    orderId: number,
    part: { amountCents?: number; credits?: number } = {},
  ): Promise<OrderRow> {
    const found = await repo.findOrder(this.db, orderId);
    if (!found) throw new NotFoundError();
    const cents = part.amountCents ?? found.amountCents;
    if (cents < 1 || cents > found.amountCents)
      throw new ValidationFailedError({ amount_cents: 'refund_amount' });
    const credits = part.credits ?? Math.floor((found.credits * cents) / Math.max(found.amountCents, 1));
    if (credits < 0 || credits > found.credits)
      throw new ValidationFailedError({ credits: 'refund_credits' });
    const whole = cents === found.amountCents && credits === found.credits;
    const order = await repo.beginRefund(this.db, orderId, this.provider.name, this.clock.now(), {
      cents: whole ? null : cents,
      credits: whole ? null : credits,
    });
    if (!order?.providerPaymentId) throw new RefundImpossibleError();
    await this.askProviderToRefund(order, order.providerPaymentId, true);
    await this.settle(order.providerPaymentId, 'refund');
    return (await repo.findOrder(this.db, order.id)) ?? order;
  }

  /** One refund request to the provider; on failure the order is completed again (or stays refunding when `abandon` is false). */
  private async askProviderToRefund(order: OrderRow, paymentId: string, abandon: boolean): Promise<void> {
    let outcome: 'refunded' | 'refused';
    try {
      outcome = await this.provider.refundPayment({
        paymentId,
        amountCents: order.refundCents ?? order.amountCents,
        currency: order.currency,
        idempotencyKey: refundKey(order.id),
      });
    } catch (error) {
      if (abandon) await repo.abandonRefund(this.db, order.id);
      this.onRefundFailure?.(order.id, 'unavailable', error);
      throw error instanceof AppError ? error : new ProviderUnavailableError(this.provider.name, error);
    }
    if (outcome === 'refused') {
      await repo.abandonRefund(this.db, order.id);
      this.onRefundFailure?.(order.id, 'refused', null);
      throw new RefundImpossibleError();
    }
  }

  /** Told about each refund the provider refused or could not take (app.ts logs and counts). */
  onRefundFailure:
    | ((orderId: number, outcome: 'refused' | 'unavailable', error: unknown) => void)
    | undefined;

  /**
   * Refunds asked longer ago than `olderThanMinutes` and still unsettled (the process stopped between
   * the status change and the provider's answer, or the webhook never came): the provider's book is
   * read again, and a refund it does not show is asked again with the same key.
   */
  private async recheckRefunds(before: Date, limit: number): Promise<{ checked: number; failed: number }> {
    const stuck = await repo.refundsAskedBefore(this.db, this.provider.name, before, limit);
    let failed = 0;
    for (const order of stuck) {
      if (!order.providerPaymentId) continue;
      try {
        await this.settle(order.providerPaymentId, 'recheck');
        const now = await repo.findOrder(this.db, order.id);
        if (now?.status !== 'refunding') continue;
        await this.askProviderToRefund(order, order.providerPaymentId, false);
        await this.settle(order.providerPaymentId, 'recheck');
      } catch (error) {
        failed++;
        this.onRecheckFailure?.(order.providerPaymentId, error);
      }
    }
    return { checked: stuck.length, failed };
  }

  /** Told about each pending order the re-check could not settle (app.ts logs and counts). */
  onRecheckFailure: ((providerPaymentId: string, error: unknown) => void) | undefined;

  /** Pending orders (the payments queue depth of /metrics). */
  pendingCount(): Promise<number> {
    return repo.countPendingOrders(this.db);
  }

  /**
   * The one settlement path of every provider (webhook and test checkout): re-fetch the payment,
   * then, under a lock on the order, book the credits once (the ledger reference is the payment id),
   * make the member premium, or reverse a refund or chargeback. Every report on a known order is
   * kept in its history (order_events), with the order's status before and after.
   */
  async settle(providerPaymentId: string, source: OrderEventSource = 'webhook'): Promise<void> {
    const payment = await this.provider.getPayment(providerPaymentId);
    if (!payment) return;
    const reference = `${this.provider.name}:${payment.id}`;
    const outcome = await this.db.transaction(async (tx) => {
      const order = await repo.lockOrderByPayment(tx, this.provider.name, payment.id);
      if (!order) return null;
      const now = this.clock.now();
      const record = (statusAfter: OrderRow['status']) =>
        repo.insertOrderEvent(tx, {
          orderId: order.id,
          source,
          providerStatus: payment.status,
          refundedCents: payment.refundedCents,
          chargedBackCents: payment.chargedBackCents,
          statusBefore: order.status,
          statusAfter,
          at: now,
        });
      if (order.status === 'pending' && payment.status === 'paid') {
        if (payment.amountCents !== order.amountCents || payment.currency !== order.currency) {
          await repo.updateOrder(tx, order.id, { status: 'failed', settledAt: now });
          await record('failed');
          return null;
        }
        const balance = await changeCredits(tx, {
          userId: order.userId,
          delta: order.credits,
          reason: 'purchase',
          reference,
          at: now,
        });
        // The invoice's VAT is fixed now: a later change of the rate table never changes it.
        await repo.updateOrder(tx, order.id, {
          status: 'completed',
          settledAt: now,
          ...vatAtPayment(order.amountCents, order.country),
        });
        await markPaidUser(tx, order.userId);
        // The first paid order of a tracked click: its postback-ready record, committed with it (decision 018).
        await recordFirstPurchase(tx, order, now);
        if (order.discountCodeId)
          await repo.insertRedemption(tx, order.discountCodeId, order.userId, order.id, now);
        await record('completed');
        return balance === null ? null : { userId: order.userId, balance };
      }
      if (order.status === 'pending' && (payment.status === 'failed' || payment.status === 'cancelled')) {
        await repo.updateOrder(tx, order.id, { status: payment.status, settledAt: now });
        await record(payment.status);
        return null;
      }
      const reversal = reversalOf(order, payment);
      if (reversal) {
        const user = await lockUser(tx, order.userId);
        const take = Math.min(reversal.credits, user?.credits ?? 0);
        // Nothing left to take (a chargeback after a whole refund, a spent balance): no ledger row.
        const balance =
          take > 0
            ? await changeCredits(tx, {
                userId: order.userId,
                delta: -take,
                reason: reversal.reason,
                reference,
                at: now,
              })
            : null;
        await repo.updateOrder(tx, order.id, {
          status: 'refunded',
          reversedCredits: order.reversedCredits + reversal.credits,
          ...(reversal.reason === 'chargeback' ? { chargedBackAt: now } : {}),
        });
        if (reversal.reason === 'chargeback') await flagChargeback(tx, order.userId, now);
        await record('refunded');
        return balance === null ? null : { userId: order.userId, balance };
      }
      await record(order.status);
      return null;
    });
    if (outcome) {
      // The balance a cached session holds is stale now (decision 014).
      await announceSessionsChanged(this.bus, outcome.userId);
      await publishToMember(this.bus, outcome.userId, { type: 'credits', credits: outcome.balance });
    }
  }
}

/** Letters and digits that cannot be mistaken for each other when typed from a mail. */
const codeAlphabet = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';

/**
 * A personal code for one member (a win-back offer), once per member, valid until `expires`;
 * inside the caller's transaction. Checked at checkout like every code (validDiscount).
 */
export async function issuePersonalCode(
  db: Executor,
  input: { userId: number; prefix: string; percentage: number; expires: Date; at: Date },
): Promise<{ id: number; code: string }> {
  for (;;) {
    const code = `${input.prefix}-${Array.from({ length: 8 }, () => codeAlphabet[randomInt(codeAlphabet.length)]).join('')}`;
    const id = await repo.insertNewDiscountCode(db, {
      code,
      userId: input.userId,
      valuePercentage: input.percentage,
      expires: input.expires,
      validity: 'once_per_user',
      status: 'active',
      createdAt: input.at,
    });
    if (id !== null) return { id, code };
  }
}
