import type { ReactNode } from 'react';
import { Form, Link, useNavigation } from 'react-router';
import { formError, formText } from '#app/lib/actions.server.ts';
import { formatDate, formatMoney } from '#app/lib/format.ts';
import { useRootData } from '#app/lib/root-data.ts';
import { staffApi } from '#app/lib/staff-api.server.ts';
import { useTranslation } from '#app/lib/use-translation.ts';
import type { Route } from './+types/order';
import { utcTime } from './money-form.ts';
import { StatusBadge } from './orders.tsx';
import { TableScroll } from './table-scroll.tsx';

export async function loader({ context, params }: Route.LoaderArgs) {
  const id = Number(params.id);
  if (!Number.isInteger(id) || id <= 0) throw new Response(null, { status: 404 });
  const result = await staffApi(context.api)('GET /api/admin/order.php', { query: { id } });
  if (!result.ok) throw new Response(null, { status: result.status });
  return result.data;
}

/** The refund: through the payment provider; the ledger takes the credits back once. */
export async function action({ context, params, request }: Route.ActionArgs) {
  const form = await request.formData();
  const result = await staffApi(context.api)('POST /api/admin/refund.php', {
    body: { order: Number(params.id), reason: formText(form, 'reason') },
  });
  return result.ok ? { refunded: true as const } : formError(result);
}

/** An order (admins): the provider's payment id, amounts, discount, credits, webhook history, refund. */
export default function OrderPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { locale } = useRootData();
  const navigation = useNavigation();
  const { order, events, credits_granted, credits_reversed, refundable } = loaderData;
  const errors = actionData && 'errors' in actionData ? actionData.errors : undefined;
  const money = (cents: number) => formatMoney(cents, order.currency, locale);
  const rows: [string, ReactNode][] = [
    [t('admin:orders.status'), <StatusBadge key="status" status={order.status} />],
    [
      t('admin:orders.member'),
      <Link key="member" to={`/admin/members/${order.member.id}`}>
        {order.member.name} #{order.member.id}
      </Link>,
    ],
    [t('admin:orders.email'), order.member.email ?? '–'],
    [t('admin:orders.site'), order.site.name],
    [t('admin:orders.created'), formatDate(order.created_at, locale, utcTime)],
    [t('admin:orders.settled'), order.settled_at ? formatDate(order.settled_at, locale, utcTime) : '–'],
    [t('admin:orders.provider'), order.provider],
    [
      t('admin:orders.paymentId'),
      <span key="payment" className="font-monospace text-break" data-testid="payment-id">
        {order.provider_payment_id ?? '–'}
      </span>,
    ],
    [t('admin:orders.method'), t(`credits:method.${order.paymentmethod}`)],
    [t('admin:money.country'), order.country],
    [t('admin:orders.listPrice'), money(order.list_price)],
    [
      t('admin:orders.discount'),
      order.discount ? `${order.discount.code} (−${order.discount.value_percentage}%)` : '–',
    ],
    [t('admin:orders.amount'), <strong key="amount">{money(order.amount)}</strong>],
    [t('admin:orders.credits'), order.credits],
    [t('admin:orders.creditsGranted'), credits_granted],
    [t('admin:orders.creditsReversed'), credits_reversed],
  ];
  return (
    <div className="row g-3">
      <div className="col-12">
        <nav className="mb-2">
          <Link to="/admin/orders">{t('admin:orders.back')}</Link>
        </nav>
        <h1 className="h4">{t('admin:orders.detailHeading', { id: order.id })}</h1>
      </div>
      <div className="col-12 col-lg-5">
        <section className="card mb-3">
          <div className="card-body">
            <dl className="row mb-0 small">
              {rows.map(([label, value]) => (
                <div className="d-contents" key={label}>
                  <dt className="col-5 text-body-secondary fw-normal">{label}</dt>
                  <dd className="col-7">{value}</dd>
                </div>
              ))}
            </dl>
          </div>
        </section>
        {refundable && (
          <section className="card border-danger-subtle">
            <div className="card-body">
              <h2 className="h6">{t('admin:action.refund')}</h2>
              <p className="small text-body-secondary">
                {t('admin:orders.refundLead', { amount: money(order.amount) })}
              </p>
              {errors && (
                <div className="alert alert-danger" role="alert">
                  {errors.body.message}
                </div>
              )}
              <Form method="post">
                <div className="mb-2">
                  <label className="form-label small" htmlFor="refund-reason">
                    {t('admin:action.reason')}
                  </label>
                  <input
                    id="refund-reason"
                    name="reason"
                    className="form-control form-control-sm"
                    required
                    maxLength={500}
                  />
                </div>
                <div className="form-check mb-2">
                  <input className="form-check-input" type="checkbox" id="refund-confirm" required />
                  <label className="form-check-label small" htmlFor="refund-confirm">
                    {t('admin:action.confirm')}
                  </label>
                </div>
                <button
                  type="submit"
                  className="btn btn-danger btn-sm"
                  disabled={navigation.state === 'submitting'}
                >
                  {t('admin:action.refund')}
                </button>
              </Form>
            </div>
          </section>
        )}
        {actionData && 'refunded' in actionData && (
          <div className="alert alert-success mt-3" role="status">
            {t('admin:action.done')}
          </div>
        )}
      </div>
      <div className="col-12 col-lg-7">
        <h2 className="h5">{t('admin:orders.history')}</h2>
        {events.length === 0 ? (
          <p className="text-body-secondary">{t('admin:orders.noHistory')}</p>
        ) : (
          <TableScroll label={t('admin:orders.history')}>
            <table className="table table-sm align-middle" data-testid="order-history">
              <thead>
                <tr>
                  <th>{t('admin:orders.when')}</th>
                  <th>{t('admin:orders.source')}</th>
                  <th>{t('admin:orders.providerStatus')}</th>
                  <th>{t('admin:orders.change')}</th>
                </tr>
              </thead>
              <tbody>
                {events.map((event) => (
                  <tr key={event.id}>
                    <td className="small text-nowrap">{formatDate(event.at, locale, utcTime)}</td>
                    <td>{t(`admin:orders.sources.${event.source}`)}</td>
                    <td>
                      <span className="font-monospace">{event.provider_status}</span>
                      {event.refunded > 0 && (
                        <div className="small text-body-secondary">
                          {t('admin:orders.refunded', { amount: money(event.refunded) })}
                        </div>
                      )}
                      {event.charged_back > 0 && (
                        <div className="small text-body-secondary">
                          {t('admin:orders.chargedBack', { amount: money(event.charged_back) })}
                        </div>
                      )}
                    </td>
                    <td className="small">
                      {event.status_before === event.status_after
                        ? t('admin:orders.unchanged')
                        : `${t(`credits:orderStatus.${event.status_before}`)} → ${t(`credits:orderStatus.${event.status_after}`)}`}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        )}
      </div>
    </div>
  );
}
