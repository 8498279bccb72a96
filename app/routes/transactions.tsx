import { useEffect } from 'react';
import { data, Link, useRevalidator } from 'react-router';
import { afterPaymentPath, withReturn } from '#app/lib/after-payment.ts';
import { serverApi } from '#app/lib/api.ts';
import { formatMoney, useDates } from '#app/lib/format.ts';
import { pageMeta } from '#app/lib/meta.ts';
import { reportCaught } from '#app/lib/report-caught.ts';
import { useRootData } from '#app/lib/root-data.ts';
import { useTranslation } from '#app/lib/use-translation.ts';
import { useSession } from '#app/state/session.tsx';
import type { Transaction } from '#contract/endpoints/payments.ts';
import type { Route } from './+types/transactions';

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, 'page.transactions');
}

export async function loader({ context, params, request }: Route.LoaderArgs) {
  const api = serverApi(context.api);
  if (params.id) {
    const one = await api('GET /api/transactions.php', { query: { id: Number(params.id) || 0 } });
    // Another member's or an unknown transaction: a 404 inside the layout.
    if (!one.ok || !('transaction' in one.data)) throw data(null, { status: 404 });
    // The payment's return page: the way back to the chat the top-up started from, if any.
    const back = afterPaymentPath(request, one.data.transaction.id);
    return { transaction: one.data.transaction, transactions: null, ledger: [], back };
  }
  const [all, credits] = await Promise.all([api('GET /api/transactions.php'), api('GET /api/credits.php')]);
  return {
    transaction: null,
    transactions: all.ok && 'transactions' in all.data ? all.data.transactions : [],
    ledger: credits.ok ? credits.data.ledger : [],
    back: null,
  };
}

function Receipt({ transaction, back }: { transaction: Transaction; back: string | null }) {
  const { t } = useTranslation();
  const { locale } = useRootData();
  const dates = useDates();
  const revalidator = useRevalidator();
  const { refreshUser } = useSession();
  const pending = transaction.status === 'pending';
  // The return page of a payment: it follows the order until the provider has settled it.
  useEffect(() => {
    if (!pending) {
      void refreshUser().catch((error: unknown) => reportCaught('refreshing the balance', error));
      return;
    }
    const timer = setInterval(() => void revalidator.revalidate(), 2000);
    return () => clearInterval(timer);
  }, [pending, revalidator, refreshUser]);
  return (
    <article className="card" data-testid="receipt">
      <div className="card-body">
        <h2 className="h5">{t('credits:transactions.order', { id: transaction.id })}</h2>
        <div
          role="status"
          className={`alert ${transaction.status === 'completed' ? 'alert-success' : pending ? 'alert-info' : 'alert-warning'}`}
        >
          {transaction.status === 'completed'
            ? t('credits:status.completed', { count: transaction.credits })
            : pending
              ? t('credits:status.pending')
              : t('credits:status.failed')}
        </div>
        <dl className="row mb-0">
          <dt className="col-5">{t('credits:transactions.date')}</dt>
          <dd className="col-7">
            {dates.date(transaction.created_at, { dateStyle: 'long', timeStyle: 'short' })}
          </dd>
          <dt className="col-5">{t('credits:transactions.amount')}</dt>
          <dd className="col-7">
            {formatMoney(transaction.amount, transaction.currency, locale)} ·{' '}
            {t('credits:bundle.credits', { count: transaction.credits })}
          </dd>
          <dt className="col-5">{t('credits:transactions.method')}</dt>
          <dd className="col-7">{t(`credits:method.${transaction.paymentmethod}`)}</dd>
          <dt className="col-5">{t('credits:transactions.status')}</dt>
          <dd className="col-7">{t(`credits:orderStatus.${transaction.status}`)}</dd>
          {transaction.company && (
            <>
              <dt className="col-5">{t('credits:transactions.seller')}</dt>
              <dd className="col-7">
                {transaction.company.name}, {transaction.company.address}, {transaction.company.city},{' '}
                {transaction.company.country}
                {transaction.company.vat_numbers.map((vat) => (
                  <span key={vat} className="d-block small">
                    {t('footer.vat', { vat })}
                  </span>
                ))}
              </dd>
            </>
          )}
        </dl>
        <p className="small mt-3 mb-0">
          <Link to="/pages/return-policy" className="link-secondary">
            {t('credits:transactions.refund', { count: transaction.refund_days })}
          </Link>
        </p>
        <div className="d-flex flex-wrap gap-2 mt-3">
          {back && !pending && (
            <Link
              to={back}
              className={`btn ${transaction.status === 'completed' ? 'btn-cta' : 'btn-outline-primary'}`}
              data-testid="after-payment-back"
            >
              {/^\/chats\/\d+$/.test(back) ? t('credits:return.chat') : t('credits:return.back')}
            </Link>
          )}
          {['completed', 'refunding', 'refunded'].includes(transaction.status) && (
            <Link
              to={`/transactions/${transaction.id}/invoice`}
              className="btn btn-outline-secondary"
              data-testid="invoice-link"
            >
              {t('credits:invoice.download')}
            </Link>
          )}
          {(transaction.status === 'failed' || transaction.status === 'cancelled') && (
            <Link to={withReturn('/credits', back)} className="btn btn-primary">
              {t('credits:tryAgain')}
            </Link>
          )}
        </div>
      </div>
    </article>
  );
}

/** Transactions, and one transaction as a receipt (also the return page of a payment). */
export default function Transactions({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { locale } = useRootData();
  const dates = useDates();
  return (
    <div className="container py-4" style={{ maxWidth: 720 }}>
      <h1 className="h3 mb-3">{t('page.transactions')}</h1>
      {loaderData.transaction ? (
        <Receipt transaction={loaderData.transaction} back={loaderData.back} />
      ) : loaderData.transactions && loaderData.transactions.length > 0 ? (
        <ul className="list-group">
          {loaderData.transactions.map((order) => (
            <li key={order.id} className="list-group-item d-flex justify-content-between">
              <Link to={`/transactions/${order.id}`}>{dates.date(order.created_at)}</Link>
              <span>
                {formatMoney(order.amount, order.currency, locale)} ·{' '}
                {t(`credits:orderStatus.${order.status}`)}
              </span>
            </li>
          ))}
        </ul>
      ) : (
        <p>{t('credits:transactions.empty')}</p>
      )}
      {loaderData.ledger.length > 0 && (
        <section className="mt-4" data-testid="credits-ledger">
          <h2 className="h5">{t('credits:ledger.heading')}</h2>
          <p className="small text-body-secondary">{t('credits:ledger.lead')}</p>
          <table className="table table-sm">
            <tbody>
              {loaderData.ledger.map((entry) => (
                <tr key={`${entry.created_at}-${entry.balance_after}-${entry.delta}`}>
                  <td>{dates.date(entry.created_at, { dateStyle: 'short', timeStyle: 'short' })}</td>
                  <td>{t(`credits:ledger.reason.${entry.reason}`)}</td>
                  <td className={`text-end ${entry.delta < 0 ? 'text-danger' : 'text-success'}`}>
                    {entry.delta > 0 ? `+${entry.delta}` : entry.delta}
                  </td>
                  <td className="text-end text-body-secondary">{entry.balance_after}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      )}
    </div>
  );
}
