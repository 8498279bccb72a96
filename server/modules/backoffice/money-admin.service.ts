import type {
  AdminBundle,
  AdminDiscountCode,
  AdminGift,
  AdminOrder,
  AdminOrderDetail,
  AdminOrdersExportQuery,
  AdminOrdersQuery,
  BundlePriceInput,
  CreateBundle,
  CreateDiscountCode,
  CreateGift,
  UpdateBundle,
  UpdateDiscountCode,
  UpdateGift,
} from '#contract/admin-money.ts';
import type { Database, Executor } from '#server/db/client.ts';
import type { StaffRow } from '#server/db/schema/staff.ts';
import type { ReportCaught } from '#server/lib/best-effort.ts';
import type { Clock } from '#server/lib/clock.ts';
import { toCsv } from '#server/lib/csv.ts';
import { NotFoundError, ValidationFailedError } from '#server/lib/errors.ts';
import { type MediaStorage, newMediaKey } from '#server/lib/storage.ts';
import { processPhoto, UnsupportedImageError } from '#server/modules/photos/photo-processing.ts';
import { UnsupportedImageAppError } from '#server/modules/photos/photos.service.ts';
import type { StaffService } from '#server/modules/staff/staff.service.ts';
import * as repo from './money-admin.repository.ts';
import { isUniqueViolation } from './sites-admin.service.ts';

export const ordersPageSize = 50;
/** The most orders one CSV download holds. */
export const ordersExportMax = 100_000;

/** ISO 4217 codes the platform's Intl knows (EUR, PLN, SEK, …). */
const knownCurrencies = new Set(Intl.supportedValuesOf('currency'));

function checkCurrency(field: string, currency: string | null | undefined): void {
  if (currency && !knownCurrencies.has(currency)) throw new ValidationFailedError({ [field]: 'invalid' });
}

function cleanNames(names: Partial<Record<string, string | undefined>>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(names).flatMap(([locale, name]) => (name?.trim() ? [[locale, name.trim()]] : [])),
  );
}

const noImage = '';

type SiteRef = { id: number; name: string } | null;

function siteRef(names: Map<number, string>, siteId: number | null): SiteRef {
  return siteId === null ? null : { id: siteId, name: names.get(siteId) ?? '' };
}

export type Acting = { actor: StaffRow; ip: string };

/**
 * Money and offers in the back office (admins): bundles and their prices per country, gifts,
 * discount codes and orders. Members' pages read bundles, prices, gifts and codes from the database
 * on every request (nothing is cached), so a change shows at once on every instance. Every change
 * leaves an audit entry in the same transaction.
 */
export class MoneyAdminService {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly staff: StaffService,
    private readonly storage: MediaStorage,
    /** Logs and counts an old image that could not be removed (deps.caught). */
    private readonly reportCaught: ReportCaught,
  ) {}

  private audit(
    db: Executor,
    acting: Acting,
    action: string,
    object: string,
    detail?: Record<string, string | number | boolean | null>,
  ) {
    return this.staff.audit(db, {
      staffId: acting.actor.id,
      action,
      object,
      ip: acting.ip,
      ...(detail ? { detail } : {}),
    });
  }

  /** An offer's site as given: undefined (unchanged), null (every site) or a site that exists. */
  private async offerSite(db: Executor, site: number | null | undefined): Promise<number | null | undefined> {
    if (site === undefined || site === null) return site;
    if (!(await repo.siteNames(db)).has(site)) throw new ValidationFailedError({ site: 'invalid' });
    return site;
  }

  // Bundles

  async bundles(): Promise<AdminBundle[]> {
    const rows = await repo.listBundles(this.db);
    const [prices, paid, names] = await Promise.all([
      repo.pricesOf(
        this.db,
        rows.map((row) => row.id),
      ),
      repo.paidOrdersPerBundle(this.db),
      repo.siteNames(this.db),
    ]);
    return rows.map((row) => ({
      id: row.id,
      site: siteRef(names, row.siteId),
      credits: row.credits,
      position: row.position,
      active: row.active,
      badge: row.badge,
      prices: prices
        .filter((price) => price.bundleId === row.id)
        .map((price) => ({ country: price.country, amount: price.amountCents, currency: price.currency })),
      orders: paid.get(row.id) ?? 0,
    }));
  }

  private async bundle(id: number): Promise<AdminBundle> {
    const found = (await this.bundles()).find((bundle) => bundle.id === id);
    if (!found) throw new NotFoundError();
    return found;
  }

  async createBundle(acting: Acting, input: CreateBundle): Promise<AdminBundle> {
    const id = await this.db.transaction(async (tx) => {
      const siteId = (await this.offerSite(tx, input.site)) ?? null;
      const row = await repo.insertBundle(tx, {
        siteId,
        credits: input.credits,
        position: input.position ?? 0,
        active: input.active ?? true,
        badge: input.badge ?? null,
      });
      await this.audit(tx, acting, 'bundle.create', `bundle:${row.id}`, {
        credits: row.credits,
        site: siteId,
      });
      return row.id;
    });
    return this.bundle(id);
  }

  async updateBundle(acting: Acting, input: UpdateBundle): Promise<AdminBundle> {
    const { id, ...fields } = input;
    await this.db.transaction(async (tx) => {
      if (!(await repo.lockBundle(tx, id))) throw new NotFoundError();
      const siteId = await this.offerSite(tx, fields.site);
      await repo.updateBundle(tx, id, {
        ...(siteId !== undefined ? { siteId } : {}),
        ...(fields.credits !== undefined ? { credits: fields.credits } : {}),
        ...(fields.position !== undefined ? { position: fields.position } : {}),
        ...(fields.active !== undefined ? { active: fields.active } : {}),
        ...(fields.badge !== undefined ? { badge: fields.badge } : {}),
      });
      await this.audit(tx, acting, 'bundle.update', `bundle:${id}`, {
        fields: Object.keys(fields).sort().join(','),
        ...(fields.active !== undefined ? { active: fields.active } : {}),
      });
    });
    return this.bundle(id);
  }

  /** Sets a bundle's price in one country (added or changed); members see it on their next request. */
  async setPrice(acting: Acting, input: BundlePriceInput): Promise<AdminBundle> {
    checkCurrency('currency', input.currency);
    await this.db.transaction(async (tx) => {
      if (!(await repo.lockBundle(tx, input.bundle))) throw new NotFoundError();
      await repo.upsertBundlePrice(tx, {
        bundleId: input.bundle,
        country: input.country,
        amountCents: input.amount,
        currency: input.currency,
      });
      await this.audit(tx, acting, 'bundle.price', `bundle:${input.bundle}`, {
        country: input.country,
        amount_cents: input.amount,
        currency: input.currency,
      });
    });
    return this.bundle(input.bundle);
  }

  /** Takes a bundle off sale in one country. */
  async removePrice(acting: Acting, bundleId: number, country: string): Promise<AdminBundle> {
    await this.db.transaction(async (tx) => {
      if (!(await repo.lockBundle(tx, bundleId))) throw new NotFoundError();
      if (!(await repo.deleteBundlePrice(tx, bundleId, country))) throw new NotFoundError();
      await this.audit(tx, acting, 'bundle.price_remove', `bundle:${bundleId}`, { country });
    });
    return this.bundle(bundleId);
  }

  // Gifts

  private toGift(row: repo.GiftRow, sent: Map<number, number>, names: Map<number, string>): AdminGift {
    return {
      id: row.id,
      site: siteRef(names, row.siteId),
      slug: row.slug,
      image: row.imageKey === noImage ? null : this.storage.url(row.imageKey),
      names: cleanNames(row.names),
      credits: row.credits,
      position: row.position,
      active: row.active,
      sent: sent.get(row.id) ?? 0,
    };
  }

  async gifts(): Promise<AdminGift[]> {
    const [rows, sent, names] = await Promise.all([
      repo.listGifts(this.db),
      repo.giftsSent(this.db),
      repo.siteNames(this.db),
    ]);
    return rows.map((row) => this.toGift(row, sent, names));
  }

  private async gift(id: number): Promise<AdminGift> {
    const found = (await this.gifts()).find((gift) => gift.id === id);
    if (!found) throw new NotFoundError();
    return found;
  }

  /** A new gift needs its English name (the fallback of every language) and is off sale until it has an image. */
  async createGift(acting: Acting, input: CreateGift): Promise<AdminGift> {
    const names = cleanNames(input.names);
    if (!names.en) throw new ValidationFailedError({ 'names.en': 'required' });
    if (input.active) throw new ValidationFailedError({ image: 'image_required' });
    let id: number;
    try {
      id = await this.db.transaction(async (tx) => {
        if (await repo.findGiftBySlug(tx, input.slug))
          throw new ValidationFailedError({ slug: 'slug_taken' });
        const row = await repo.insertGift(tx, {
          siteId: (await this.offerSite(tx, input.site)) ?? null,
          slug: input.slug,
          imageKey: noImage,
          names,
          credits: input.credits ?? null,
          position: input.position ?? 0,
          active: false,
        });
        await this.audit(tx, acting, 'gift.create', `gift:${row.id}`, { slug: row.slug });
        return row.id;
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw new ValidationFailedError({ slug: 'slug_taken' });
      throw error;
    }
    return this.gift(id);
  }

  async updateGift(acting: Acting, input: UpdateGift): Promise<AdminGift> {
    const { id, ...fields } = input;
    try {
      await this.db.transaction(async (tx) => {
        const current = await repo.lockGift(tx, id);
        if (!current) throw new NotFoundError();
        if (fields.active && current.imageKey === noImage)
          throw new ValidationFailedError({ image: 'image_required' });
        if (fields.slug !== undefined && fields.slug !== current.slug) {
          if (await repo.findGiftBySlug(tx, fields.slug))
            throw new ValidationFailedError({ slug: 'slug_taken' });
        }
        const siteId = await this.offerSite(tx, fields.site);
        await repo.updateGift(tx, id, {
          ...(siteId !== undefined ? { siteId } : {}),
          ...(fields.slug !== undefined ? { slug: fields.slug } : {}),
          ...(fields.names !== undefined ? { names: cleanNames(fields.names) } : {}),
          ...(fields.credits !== undefined ? { credits: fields.credits } : {}),
          ...(fields.position !== undefined ? { position: fields.position } : {}),
          ...(fields.active !== undefined ? { active: fields.active } : {}),
        });
        await this.audit(tx, acting, 'gift.update', `gift:${id}`, {
          fields: Object.keys(fields).sort().join(','),
        });
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw new ValidationFailedError({ slug: 'slug_taken' });
      throw error;
    }
    return this.gift(id);
  }

  /**
   * A gift's image through the photo pipeline: decoded and re-encoded (orientation applied, EXIF
   * and GPS gone), the square thumbnail stored as a new public object.
   */
  async uploadGiftImage(acting: Acting, giftId: number, data: Buffer): Promise<AdminGift> {
    let processed: Awaited<ReturnType<typeof processPhoto>>;
    try {
      processed = await processPhoto(data);
    } catch (error) {
      if (error instanceof UnsupportedImageError) throw new UnsupportedImageAppError();
      throw error;
    }
    const key = newMediaKey('public');
    await this.storage.put(key, processed.thumb);
    const previous = await this.db.transaction(async (tx) => {
      const current = await repo.lockGift(tx, giftId);
      if (!current) throw new NotFoundError();
      await repo.updateGift(tx, giftId, { imageKey: key });
      await this.audit(tx, acting, 'gift.image', `gift:${giftId}`);
      return current.imageKey;
    });
    // An uploaded image replaced by another goes; the built-in gifts' images (gifts/…) stay.
    if (previous.startsWith('public/')) {
      // The new image is in place; an old one left behind only takes space.
      await this.storage
        .remove(previous)
        .catch((error: unknown) => this.reportCaught('gifts.remove-old-image', error));
    }
    return this.gift(giftId);
  }

  // Discount codes

  private async toCodes(rows: repo.DiscountCodeRow[]): Promise<AdminDiscountCode[]> {
    const [use, members, names] = await Promise.all([
      repo.discountUse(
        this.db,
        rows.map((row) => row.id),
      ),
      repo.membersOfUsers(
        this.db,
        rows.flatMap((row) => (row.userId === null ? [] : [row.userId])),
      ),
      repo.siteNames(this.db),
    ]);
    const now = this.clock.now();
    return rows.map((row) => {
      const member = row.userId === null ? undefined : members.get(row.userId);
      return {
        id: row.id,
        code: row.code,
        site: siteRef(names, row.siteId),
        country: row.country,
        member: member ? { id: member.profileId, name: member.name } : null,
        expires: row.expires?.toISOString() ?? null,
        expired: row.expires !== null && row.expires <= now,
        value_percentage: row.valuePercentage,
        currency: row.currency,
        minimum_order_value: row.minimumOrderValue,
        status: row.status,
        validity: row.validity,
        paymentmethods: row.paymentmethods,
        created_at: row.createdAt.toISOString(),
        redemptions: use.get(row.id)?.redemptions ?? 0,
        paid_orders: use.get(row.id)?.paidOrders ?? 0,
      };
    });
  }

  async discountCodes(): Promise<AdminDiscountCode[]> {
    return this.toCodes(await repo.listDiscountCodes(this.db));
  }

  private async codeColumns(db: Executor, input: Omit<UpdateDiscountCode, 'id'>) {
    checkCurrency('currency', input.currency);
    let userId: number | null | undefined;
    if (input.member !== undefined) {
      if (input.member === null) userId = null;
      else {
        const member = await repo.findRealMember(db, input.member);
        if (!member) throw new ValidationFailedError({ member: 'member_unknown' });
        userId = member.userId;
      }
    }
    const columns: Partial<Omit<repo.DiscountCodeRow, 'id'>> = {};
    const siteId = await this.offerSite(db, input.site);
    if (siteId !== undefined) columns.siteId = siteId;
    if (input.code !== undefined) columns.code = input.code;
    if (input.country !== undefined) columns.country = input.country;
    if (userId !== undefined) columns.userId = userId;
    if (input.expires !== undefined)
      columns.expires = input.expires === null ? null : new Date(input.expires);
    if (input.value_percentage !== undefined) columns.valuePercentage = input.value_percentage;
    if (input.currency !== undefined) columns.currency = input.currency;
    if (input.minimum_order_value !== undefined) columns.minimumOrderValue = input.minimum_order_value;
    if (input.status !== undefined) columns.status = input.status;
    if (input.validity !== undefined) columns.validity = input.validity;
    if (input.paymentmethods !== undefined) columns.paymentmethods = [...new Set(input.paymentmethods)];
    return columns;
  }

  async createDiscountCode(acting: Acting, input: CreateDiscountCode): Promise<AdminDiscountCode> {
    const taken = () => new ValidationFailedError({ code: 'code_taken' });
    try {
      const row = await this.db.transaction(async (tx) => {
        const columns = await this.codeColumns(tx, input);
        if (await repo.findDiscountCodeByCode(tx, input.code)) throw taken();
        const inserted = await repo.insertDiscountCode(tx, {
          ...columns,
          code: input.code,
          valuePercentage: input.value_percentage,
          createdAt: this.clock.now(),
        });
        await this.audit(tx, acting, 'discount.create', `discount:${inserted.id}`, {
          code: inserted.code,
          value_percentage: inserted.valuePercentage,
        });
        return inserted;
      });
      const [code] = await this.toCodes([row]);
      return code!;
    } catch (error) {
      // Two admins adding one code at once: the unique index decides, the other gets the field error.
      if (isUniqueViolation(error)) throw taken();
      throw error;
    }
  }

  async updateDiscountCode(acting: Acting, input: UpdateDiscountCode): Promise<AdminDiscountCode> {
    const { id, ...fields } = input;
    const taken = () => new ValidationFailedError({ code: 'code_taken' });
    try {
      const row = await this.db.transaction(async (tx) => {
        const current = await repo.lockDiscountCode(tx, id);
        if (!current) throw new NotFoundError();
        const columns = await this.codeColumns(tx, fields);
        if (columns.code !== undefined && columns.code.toUpperCase() !== current.code.toUpperCase()) {
          if (await repo.findDiscountCodeByCode(tx, columns.code)) throw taken();
        }
        const updated = await repo.updateDiscountCode(tx, id, columns);
        if (!updated) throw new NotFoundError();
        await this.audit(tx, acting, 'discount.update', `discount:${id}`, {
          fields: Object.keys(fields).sort().join(','),
          ...(fields.status !== undefined ? { status: fields.status } : {}),
        });
        return updated;
      });
      const [code] = await this.toCodes([row]);
      return code!;
    } catch (error) {
      if (isUniqueViolation(error)) throw taken();
      throw error;
    }
  }

  // Orders

  private toOrders(
    rows: repo.OrderListRow[],
    members: Awaited<ReturnType<typeof repo.membersOfUsers>>,
  ): AdminOrder[] {
    return rows.map(({ order, siteName, code, codePercentage }) => {
      const member = members.get(order.userId);
      return {
        id: order.id,
        status: order.status,
        site: { id: order.siteId, name: siteName },
        member: { id: member?.profileId ?? 0, name: member?.name ?? '', email: member?.email ?? null },
        bundle: order.bundleId,
        credits: order.credits,
        amount: order.amountCents,
        list_price: order.listPriceCents,
        currency: order.currency,
        country: order.country,
        paymentmethod: order.paymentMethod,
        provider: order.provider,
        provider_payment_id: order.providerPaymentId,
        discount:
          order.discountCodeId !== null && code !== null && codePercentage !== null
            ? { id: order.discountCodeId, code, value_percentage: codePercentage }
            : null,
        created_at: order.createdAt.toISOString(),
        settled_at: order.settledAt?.toISOString() ?? null,
        refund_cents: order.refundCents,
        refund_credits: order.refundCredits,
        charged_back_at: order.chargedBackAt?.toISOString() ?? null,
      };
    });
  }

  /** The list's filters as the repository takes them; null when the member filter names nobody. */
  private async orderFilters(query: AdminOrdersExportQuery): Promise<repo.OrderFilters | null> {
    let userId: number | undefined;
    if (query.member !== undefined) {
      const member = await repo.findRealMember(this.db, query.member);
      if (!member) return null;
      userId = member.userId;
    }
    const before = query.to ? new Date(`${query.to}T00:00:00Z`) : undefined;
    before?.setUTCDate(before.getUTCDate() + 1);
    return {
      status: query.status,
      method: query.method,
      siteId: query.site,
      userId,
      from: query.from ? new Date(`${query.from}T00:00:00Z`) : undefined,
      before,
    };
  }

  async orders(
    query: AdminOrdersQuery,
  ): Promise<{ orders: AdminOrder[]; total: number; page: number; pages: number }> {
    const filters = await this.orderFilters(query);
    if (!filters) return { orders: [], total: 0, page: query.page, pages: 0 };
    const { rows, total } = await repo.listOrders(this.db, filters, {
      limit: ordersPageSize,
      offset: (query.page - 1) * ordersPageSize,
    });
    const members = await repo.membersOfUsers(this.db, [...new Set(rows.map((row) => row.order.userId))]);
    return {
      orders: this.toOrders(rows, members),
      total,
      page: query.page,
      pages: Math.ceil(total / ordersPageSize),
    };
  }

  /**
   * The filtered orders as a CSV file (formula-safe), newest first, amounts in units of their
   * currency. More than ordersExportMax orders is refused (a field error on `from`): a narrower
   * range, rather than a file cut short without a word.
   */
  async ordersCsv(query: AdminOrdersExportQuery): Promise<string> {
    const filters = await this.orderFilters(query);
    const rows = filters ? await repo.exportOrders(this.db, filters, ordersExportMax + 1) : [];
    if (rows.length > ordersExportMax) {
      throw new ValidationFailedError({ from: 'out_of_range' }, { max: ordersExportMax });
    }
    const units = (cents: number) => (cents / 100).toFixed(2);
    return toCsv([
      [
        'id',
        'created_at',
        'settled_at',
        'status',
        'site_id',
        'site',
        'member_id',
        'member',
        'email',
        'country',
        'currency',
        'amount',
        'list_price',
        'discount_code',
        'discount_percentage',
        'bundle',
        'credits',
        'payment_method',
        'provider',
        'provider_payment_id',
      ],
      ...rows.map(({ order, siteName, code, codePercentage, profileId, name, email }) => [
        order.id,
        order.createdAt.toISOString(),
        order.settledAt?.toISOString() ?? null,
        order.status,
        order.siteId,
        siteName,
        profileId,
        name,
        email,
        order.country,
        order.currency,
        units(order.amountCents),
        units(order.listPriceCents),
        code,
        codePercentage,
        order.bundleId,
        order.credits,
        order.paymentMethod,
        order.provider,
        order.providerPaymentId,
      ]),
    ]);
  }

  /** An order with the credits the ledger booked for it and every provider report, oldest first. */
  async order(id: number, providerName: string): Promise<AdminOrderDetail> {
    const row = await repo.findOrderRow(this.db, id);
    if (!row) throw new NotFoundError();
    const { order } = row;
    const [members, events, ledger] = await Promise.all([
      repo.membersOfUsers(this.db, [order.userId]),
      repo.eventsOf(this.db, id),
      order.providerPaymentId
        ? repo.ledgerOfPayment(this.db, order.userId, `${order.provider}:${order.providerPaymentId}`)
        : Promise.resolve([]),
    ]);
    const sum = (reasons: string[]) =>
      ledger
        .filter((entry) => reasons.includes(entry.reason))
        .reduce((total, entry) => total + entry.delta, 0);
    return {
      order: this.toOrders([row], members)[0]!,
      credits_granted: sum(['purchase']),
      credits_reversed: -sum(['refund', 'chargeback']),
      refundable:
        order.status === 'completed' && order.providerPaymentId !== null && order.provider === providerName,
      events: events.map((event) => ({
        id: event.id,
        at: event.at.toISOString(),
        source: event.source,
        provider_status: event.providerStatus,
        refunded: event.refundedCents,
        charged_back: event.chargedBackCents,
        status_before: event.statusBefore,
        status_after: event.statusAfter,
      })),
    };
  }
}
