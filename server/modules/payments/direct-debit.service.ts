import { randomInt } from 'node:crypto';
import { electronicFormatIBAN, isValidIBAN } from 'ibantools';
import { isLocale } from '#contract/locales.ts';
import type { Database, Executor } from '#server/db/client.ts';
import type { UserRow } from '#server/db/schema/members.ts';
import type { directDebitMandates } from '#server/db/schema/payments.ts';
import type { SiteRow } from '#server/db/schema/sites.ts';
import type { ReportCaught } from '#server/lib/best-effort.ts';
import { addDays, addMinutes, type Clock } from '#server/lib/clock.ts';
import { AppError, NotFoundError, ValidationFailedError } from '#server/lib/errors.ts';
import type { Translator } from '#server/lib/i18n.ts';
import type { SmsSender } from '#server/lib/sms.ts';
import { hashToken } from '#server/lib/tokens.ts';
import { findUserById, setPaymentCustomer } from '#server/modules/accounts/accounts.service.ts';
import * as repo from './direct-debit.repository.ts';
import type { PaymentProvider } from './providers.ts';

/** The SMS gateway refused or did not answer: 503, so the member can try again, never a 500. */
export class SmsUnavailableError extends AppError {
  override name = 'SmsUnavailableError';
  constructor(override readonly cause?: unknown) {
    super(503, 'sms_unavailable');
  }
}

export const codeMinutes = 10;
export const maxCodeAttempts = 5;
/** What one member may pay by direct debit in 30 days (integer cents), against reversed-debit losses. */
export const directDebitLimitCents = 15_000;

export class DirectDebitBlockedError extends AppError {
  override name = 'DirectDebitBlockedError';
  constructor() {
    super(403, 'direct_debit_blocked');
  }
}

export class DirectDebitLimitError extends AppError {
  override name = 'DirectDebitLimitError';
  constructor() {
    super(403, 'direct_debit_limit');
  }
}

export function maskIban(iban: string): string {
  return `${iban.slice(0, 4)} •••• ${iban.slice(-4)}`;
}

export type MandateView = {
  id: number;
  status: 'pending' | 'active' | 'revoked';
  iban: string;
  account_holder: string;
  phone: string;
};

export class DirectDebitService {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly sms: SmsSender,
    private readonly translator: Translator,
    /** Logs and counts a mandate the provider did not take (deps.caught). */
    private readonly reportCaught: ReportCaught,
    /** A provider with a mandate API (Mollie) gets each confirmed mandate; others debit via checkout. */
    private readonly provider?: PaymentProvider,
  ) {}

  private view(row: typeof directDebitMandates.$inferSelect): MandateView {
    return {
      id: row.id,
      status: row.status,
      iban: maskIban(row.iban),
      account_holder: row.accountHolder,
      phone: `••• ${row.phone.slice(-3)}`,
    };
  }

  async current(member: UserRow): Promise<MandateView | null> {
    const row = await repo.latestMandate(this.db, member.id);
    return row ? this.view(row) : null;
  }

  /** Checks the IBAN and sends a code by SMS; the mandate is active once the code comes back. */
  async start(
    member: UserRow,
    site: SiteRow,
    input: { account_holder: string; iban: string; phone: string },
  ): Promise<MandateView> {
    if (member.directDebitBlocked) throw new DirectDebitBlockedError();
    const iban = electronicFormatIBAN(input.iban) ?? '';
    if (!isValidIBAN(iban)) throw new ValidationFailedError({ iban: 'invalid_iban' });
    const phone = input.phone.replace(/[\s().-]/g, '');
    if (!/^\+?\d{8,15}$/.test(phone)) throw new ValidationFailedError({ phone: 'invalid_phone' });
    const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
    const now = this.clock.now();
    const row = await repo.insertMandate(this.db, {
      userId: member.id,
      accountHolder: input.account_holder.trim(),
      iban,
      phone,
      codeHash: hashToken(code),
      codeExpiresAt: addMinutes(now, codeMinutes),
      createdAt: now,
    });
    const locale = isLocale(member.language) ? member.language : 'en';
    try {
      await this.sms.send(phone, this.translator.t(locale, 'directdebit:sms', { site: site.name, code }));
    } catch (error) {
      // The mandate stays pending without a code the member ever saw; a new try makes a new one.
      throw new SmsUnavailableError(error);
    }
    return this.view(row);
  }

  /**
   * The SMS code: it expires after 10 minutes and allows 5 tries. Under the mandate's row lock a try
   * is counted before the code is compared, in the transaction that compares it, so parallel
   * requests compare at most 5 codes (docs/decisions/009-limits-under-concurrency.md).
   */
  async confirm(member: UserRow, mandateId: number, code: string): Promise<MandateView> {
    const confirmed = await this.db.transaction(async (tx) => {
      const row = await repo.lockMandate(tx, mandateId, member.id);
      if (row?.status !== 'pending') throw new NotFoundError();
      if (
        row.codeAttempts >= maxCodeAttempts ||
        !row.codeExpiresAt ||
        row.codeExpiresAt <= this.clock.now()
      ) {
        throw new AppError(429, 'code_attempts');
      }
      await repo.countCodeTry(tx, row.id);
      if (!row.codeHash || hashToken(code.trim()) !== row.codeHash) return null;
      return this.view(await repo.activateMandate(tx, row.id, member.id, this.clock.now()));
    });
    // The try stays counted: the transaction committed before the refusal.
    if (!confirmed) throw new ValidationFailedError({ code: 'invalid_code' });
    // Handed to the provider outside the lock; a provider that is down never fails the confirmation:
    // the next direct-debit order hands it over again (providerMandate).
    await this.providerMandate(member).catch((error: unknown) =>
      this.reportCaught('direct-debit.provider-mandate', error),
    );
    return confirmed;
  }

  /**
   * The member's active mandate at the payment provider, handed over once (Mollie's customer-mandate
   * API, with the IBAN and holder the member confirmed by SMS). Null when the provider has no
   * mandate API or the member has no active mandate.
   */
  async providerMandate(member: UserRow): Promise<{ customerId: string; mandateId: string } | null> {
    if (!this.provider?.createMandate || !member.email) return null;
    const mandate = await repo.latestMandate(this.db, member.id);
    if (mandate?.status !== 'active') return null;
    const user = await findUserById(this.db, member.id);
    const customerId = user?.paymentCustomerId ?? null;
    if (mandate.providerMandateId && customerId) return { customerId, mandateId: mandate.providerMandateId };
    const created = await this.provider.createMandate({
      customer: { id: customerId, name: mandate.accountHolder, email: member.email },
      consumerName: mandate.accountHolder,
      consumerAccount: mandate.iban,
      signatureDate: (mandate.confirmedAt ?? this.clock.now()).toISOString().slice(0, 10),
      reference: `DD-${mandate.id}`,
    });
    await repo.setProviderMandate(this.db, mandate.id, created.mandateId);
    if (created.customerId !== customerId) {
      await setPaymentCustomer(this.db, member.id, created.customerId);
    }
    return created;
  }

  /** Before an order paid by direct debit: an active mandate, not blocked, under the 30-day limit. */
  async assertCanPay(member: UserRow, amountCents: number, db: Executor = this.db): Promise<void> {
    if (member.directDebitBlocked) throw new DirectDebitBlockedError();
    const mandate = await repo.latestMandate(db, member.id);
    if (mandate?.status !== 'active') throw new ValidationFailedError({ paymentmethod: 'mandate_required' });
    // Run it inside the order's transaction under the member's row lock (PaymentsService), so that
    // parallel orders see each other's pending rows.
    const total = await repo.directDebitTotalSince(db, member.id, addDays(this.clock.now(), -30));
    if (total + amountCents > directDebitLimitCents) throw new DirectDebitLimitError();
  }
}
