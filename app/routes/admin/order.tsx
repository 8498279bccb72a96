import type { ReactNode } from 'react';
import { Form, Link, useNavigation } from 'react-router';
import { invoicedStatuses } from '#app/components/invoice-document.tsx';
import { formError, formText } from '#app/lib/actions.server.ts';
import type { FormErrors } from '#app/lib/form-errors.ts';
import { formatDate, formatMoney } from '#app/lib/format.ts';
import { useRootData } from '#app/lib/root-data.ts';
import { staffApi } from '#app/lib/staff-api.server.ts';
import { useTranslation } from '#app/lib/use-translation.ts';
import type { Route } from './+types/order';
import { AdminInput, defined } from './backoffice-form.tsx';
import { cents, centsText, utcTime } from './money-form.ts';
import { StatusBadge } from './orders.tsx';
import { TableScroll } from './table-scroll.tsx';

export async function loader({ context, params }: Route.LoaderArgs) {
  const id = Number(params.id);
  if (!Number.isInteger(id) || id <= 0) throw new Response(null, { status: 404 });
  const result = await staffApi(context.api)('GET /api/admin/order.php', { query: { id } });
  if (!result.ok) throw new Response(null, { status: result.status });
  return result.data;
}

/**
 * The refund, whole or partial: through the payment provider, once; the ledger takes back the
 * credits entered. The amount is typed as money (`4.99`); an amount that is none goes to the API as
 * typed, so its field error names it.
 */
export async function action({ context, params, request }: Route.ActionArgs) {
  const form = await request.formData();
  const amount = cents(formText(form, 'amount_cents'));
  const credits = formText(form, 'credits').trim();
  const result = await staffApi(context.api)('POST /api/admin/refund.php', {
    body: defined({
      order: Number(params.id),
      reason: formText(form, 'reason'),
      amount_cents: amount,
      credits: credits === '' ? undefined : Number(credits),
    }),
  });
  return result.ok ? { refunded: true as const } : formError(result);
}

/** A chargeback reported by the provider, with its day. */
export function ChargebackBadge({ at }: { at: string }) {
  const { t } = useTranslation();
  const { locale } = useRootData();
  return (
    <span className="badge text-bg-danger" data-testid="chargeback-badge">
      {t('admin:orders.chargebackOn', { date: formatDate(at, locale, { dateStyle: 'medium' }) })}
    </span>
  );
}

/** The refund's error in words: a repeat (409), the provider out of reach, or the API's own text. */
function RefundError({ errors }: { errors: FormErrors }) {
  const { t } = useTranslation();
  const text =
    errors.status === 409
      ? t('admin:orders.refundConflict')
      : errors.status === 502 || errors.status === 503
        ? t('admin:orders.refundRetry')
        : errors.body.fields
          ? t('admin:orders.refundFieldsError')
          : t(`errors:${errors.body.error}`, { defaultValue: errors.body.message });
  return (
    <div className="alert alert-danger" role="alert" data-testid="refund-error">
      {text}
    </div>
  );
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
    [
      t('admin:orders.status'),
      <span key="status" className="d-inline-flex flex-wrap gap-1">
        <StatusBadge status={order.status} />
        {order.charged_back_at && <ChargebackBadge at={order.charged_back_at} />}
      </span>,
    ],
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
    ...(order.refund_cents !== null
      ? ([
          [
            t('admin:orders.partialRefund'),
            t('admin:orders.partialRefundValue', {
              amount: money(order.refund_cents),
              count: order.refund_credits ?? 0,
            }),
          ],
        ] satisfies [string, ReactNode][])
      : []),
  ];
  return (
    <div className="row g-3">
      <div className="col-12">
        <nav className="mb-2">
          <Link to="/admin/orders">{t('admin:orders.back')}</Link>
        </nav>
        <div className="d-flex flex-wrap align-items-center gap-2 mb-2">
          <h1 className="h4 mb-0 me-auto">{t('admin:orders.detailHeading', { id: order.id })}</h1>
          {/* The member's own document, for a question about it: paid orders have one. */}
          {invoicedStatuses.has(order.status) && (
            <Link
              to={`/admin/orders/${order.id}/invoice`}
              className="btn btn-outline-secondary btn-sm"
              data-testid="order-invoice"
            >
              {t('admin:orders.invoice')}
            </Link>
          )}
        </div>
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
        {!refundable && errors && <RefundError errors={errors} />}
        {refundable && (
          <section className="card border-danger-subtle">
            <div className="card-body">
              <h2 className="h6">{t('admin:action.refund')}</h2>
              <p className="small text-body-secondary">{t('admin:orders.refundLead')}</p>
              {errors && <RefundError errors={errors} />}
              <Form method="post" data-testid="refund-form">
                <div className="row g-2">
                  <div className="col-6">
                    <AdminInput
                      name="amount_cents"
                      inputMode="text"
                      label={t('admin:orders.refundAmount', { currency: order.currency })}
                      hint={t('admin:orders.refundAmountHint', { amount: money(order.amount) })}
                      errors={errors}
                      defaultValue={centsText(order.amount)}
                      required
                    />
                  </div>
                  <div className="col-6">
                    <AdminInput
                      name="credits"
                      type="number"
                      inputMode="numeric"
                      label={t('admin:orders.refundCredits')}
                      hint={t('admin:orders.refundCreditsHint', { count: order.credits })}
                      errors={errors}
                      defaultValue={order.credits}
                      required
                    />
                  </div>
                </div>
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
