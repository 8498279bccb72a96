import { randomInt } from 'node:crypto';
import { electronicFormatIBAN, isValidIBAN } from 'ibantools';
import { isLocale } from '#contract/locales.ts';
import type { Database } from '#server/db/client.ts';
import type { UserRow } from '#server/db/schema/members.ts';
import type { directDebitMandates } from '#server/db/schema/payments.ts';
import type { SiteRow } from '#server/db/schema/sites.ts';
import { addDays, addMinutes, type Clock } from '#server/lib/clock.ts';
import { AppError, NotFoundError, ValidationFailedError } from '#server/lib/errors.ts';
import type { Translator } from '#server/lib/i18n.ts';
import type { SmsSender } from '#server/lib/sms.ts';
import { hashToken } from '#server/lib/tokens.ts';
import * as repo from './direct-debit.repository.ts';

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
    await this.sms.send(phone, this.translator.t(locale, 'directdebit:sms', { site: site.name, code }));
    return this.view(row);
  }

  /** The SMS code: it expires after 10 minutes and allows 5 tries. */
  async confirm(member: UserRow, mandateId: number, code: string): Promise<MandateView> {
    const confirmed = await this.db.transaction(async (tx) => {
      const row = await repo.lockMandate(tx, mandateId, member.id);
      if (!row || row.status !== 'pending') throw new NotFoundError();
      if (
        row.codeAttempts >= maxCodeAttempts ||
        !row.codeExpiresAt ||
        row.codeExpiresAt <= this.clock.now()
      ) {
        throw new AppError(429, 'code_attempts');
      }
      if (hashToken(code.trim()) !== row.codeHash) return null;
      return this.view(await repo.activateMandate(tx, row.id, member.id, this.clock.now()));
    });
    if (confirmed) return confirmed;
    // A wrong code counts, outside the transaction that refused it.
    await repo.countWrongCode(this.db, mandateId);
    throw new ValidationFailedError({ code: 'invalid_code' });
  }

  /** Before an order paid by direct debit: an active mandate, not blocked, under the 30-day limit. */
  async assertCanPay(member: UserRow, amountCents: number): Promise<void> {
    if (member.directDebitBlocked) throw new DirectDebitBlockedError();
    const mandate = await this.current(member);
    if (mandate?.status !== 'active') throw new ValidationFailedError({ paymentmethod: 'mandate_required' });
    const total = await repo.directDebitTotalSince(this.db, member.id, addDays(this.clock.now(), -30));
    if (total + amountCents > directDebitLimitCents) throw new DirectDebitLimitError();
  }
}
