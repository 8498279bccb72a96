import type { Transaction } from '#contract/endpoints/payments.ts';
import { vatOf } from '#contract/vat.ts';
import type { orders } from '#server/db/schema/payments.ts';
import { NotFoundError } from '#server/lib/errors.ts';
import { type SiteDirectory, toCompanyInfo } from '#server/modules/sites/sites.service.ts';
import { toOrder } from './payments.service.ts';

type OrderRow = typeof orders.$inferSelect;

/** What the order stores when it is paid: the rate then (hundredths of a percent) and its split. */
export function vatAtPayment(amountCents: number, country: string) {
  const vat = vatOf(amountCents, country);
  return {
    vatRateBasisPoints: Math.round(vat.rate * 100),
    netCents: vat.net,
    vatCents: vat.vat,
    grossCents: amountCents,
  };
}

/**
 * The VAT an invoice shows: the one stored when the order was paid, so a later change of the rate
 * table leaves the invoice as it was. Orders paid before it was stored (and unpaid ones) compute it
 * with today's table, as every invoice did then (decision 059).
 */
export function invoiceVat(row: OrderRow): Transaction['vat'] {
  if (row.vatRateBasisPoints !== null && row.netCents !== null && row.vatCents !== null)
    return { rate: row.vatRateBasisPoints / 100, net: row.netCents, amount: row.vatCents };
  const today = vatOf(row.amountCents, row.country);
  return { rate: today.rate, net: today.net, amount: today.vat };
}

/**
 * An order as its invoice and receipt read it: the order's own site and that site's company block
 * (spec §6), the country it was priced in and its VAT. One builder for the member's page and the
 * back office's, so both show the same document.
 */
export async function invoiceOf(sites: SiteDirectory, row: OrderRow): Promise<Transaction> {
  const site = await sites.byId(row.siteId);
  if (!site) throw new NotFoundError();
  const company = await sites.company(site);
  const info = company ? toCompanyInfo(company) : null;
  return {
    ...toOrder(row),
    company: info
      ? {
          name: info.name,
          address: info.address,
          city: info.city,
          country: info.country,
          kvk: info.kvk,
          vat_numbers: info.vat_numbers,
        }
      : null,
    company_id: site.companyId,
    site: site.name,
    country: row.country,
    vat: invoiceVat(row),
    tradenames: info?.tradenames ?? [],
    refund_days: site.refundDays,
  };
}
