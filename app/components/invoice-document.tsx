import { Link } from 'react-router';
import { blockShowsRegistration, CompanyBlock } from '#app/components/company-block.tsx';
import { formatMoney, useDates } from '#app/lib/format.ts';
import { useRootData } from '#app/lib/root-data.ts';
import { useTranslation } from '#app/lib/use-translation.ts';
import type { Transaction } from '#contract/endpoints/payments.ts';

/** Orders that were paid have an invoice (a refund shows on it); the others do not. */
export const invoicedStatuses: ReadonlySet<string> = new Set(['completed', 'refunding', 'refunded']);

/**
 * An order's invoice, print-ready (the browser prints it or saves it as PDF): the site's company
 * block as the footer's rules give it (spec §6), its VAT numbers and the VAT inside the amount.
 * The member's page and the back office's render this one document (decision 059).
 */
export function InvoiceDocument({
  transaction,
  back,
}: {
  transaction: Transaction;
  /** Where the page's way back leads, and its words. */
  back: { to: string; label: string };
}) {
  const { t } = useTranslation();
  const { locale } = useRootData();
  const dates = useDates();
  const money = (cents: number) => formatMoney(cents, transaction.currency, locale);
  const company = transaction.company;
  return (
    <div className="container py-4 invoice" style={{ maxWidth: 760 }} data-testid="invoice">
      <style>{`@media print {
  .invoice-actions, .navbar { display: none !important; }
  body { background: #fff !important; }
  .invoice { max-width: none !important; padding: 0 !important; }
  .invoice .card { border: 0 !important; }
}
@page { margin: 18mm; }`}</style>
      <nav className="invoice-actions d-flex flex-wrap gap-2 mb-3">
        <Link to={back.to} className="btn btn-outline-secondary btn-sm">
          {back.label}
        </Link>
        <button type="button" className="btn btn-primary btn-sm" onClick={() => window.print()}>
          {t('credits:invoice.print')}
        </button>
      </nav>
      <article className="card">
        <div className="card-body">
          {/* Number and date on the left, the seller on the right (stacked on a phone). */}
          <div className="row g-3 mb-4">
            <div className="col-sm">
              <h1 className="h3 mb-1">{t('credits:invoice.heading')}</h1>
              <dl className="row small mb-0">
                <dt className="col-auto fw-normal text-body-secondary">{t('credits:invoice.number')}</dt>
                <dd className="col-auto mb-0" data-testid="invoice-number">
                  {transaction.id}
                </dd>
                <div className="w-100" />
                <dt className="col-auto fw-normal text-body-secondary">{t('credits:invoice.date')}</dt>
                <dd className="col-auto mb-0">
                  {dates.date(transaction.settled_at ?? transaction.created_at, { dateStyle: 'long' })}
                </dd>
              </dl>
            </div>
            {company && (
              <div className="col-sm-auto small text-sm-end" data-testid="invoice-company">
                <CompanyBlock
                  companyId={transaction.company_id}
                  company={{ ...company, tradenames: transaction.tradenames }}
                  site={transaction.site}
                />
                {!blockShowsRegistration(transaction.company_id) &&
                  company.vat_numbers.map((vat) => <div key={vat}>{t('footer.vat', { vat })}</div>)}
              </div>
            )}
          </div>
          <table className="table mb-3">
            <thead>
              <tr>
                <th scope="col">{t('credits:invoice.item')}</th>
                <th scope="col" className="text-end">
                  {t('credits:invoice.amount')}
                </th>
              </tr>
            </thead>
            <tbody>
              <tr>
                <td>
                  {t('credits:invoice.line', {
                    site: transaction.site,
                    bundle: t('credits:bundle.credits', { count: transaction.credits }),
                  })}
                  {transaction.list_price !== transaction.amount && (
                    <div className="small text-body-secondary">
                      {t('credits:invoice.listPrice', { amount: money(transaction.list_price) })}
                    </div>
                  )}
                </td>
                <td className="text-end">{money(transaction.vat.net)}</td>
              </tr>
            </tbody>
            <tfoot>
              <tr>
                <th scope="row" className="fw-normal">
                  {t('credits:invoice.vat', {
                    rate: new Intl.NumberFormat(locale, { maximumFractionDigits: 1 }).format(
                      transaction.vat.rate,
                    ),
                  })}
                </th>
                <td className="text-end" data-testid="invoice-vat">
                  {money(transaction.vat.amount)}
                </td>
              </tr>
              <tr>
                <th scope="row">{t('credits:invoice.total')}</th>
                <td className="text-end fw-bold" data-testid="invoice-total">
                  {money(transaction.amount)}
                </td>
              </tr>
            </tfoot>
          </table>
          <p className="small mb-1">
            {t('credits:invoice.paid', { method: t(`credits:method.${transaction.paymentmethod}`) })}
          </p>
          {transaction.status !== 'completed' && (
            <p className="small mb-0">{t(`credits:orderStatus.${transaction.status}`)}</p>
          )}
        </div>
      </article>
    </div>
  );
}
