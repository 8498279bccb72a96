import { Form, Link } from 'react-router';
import { formatDate, formatMoney } from '#app/lib/format.ts';
import { useRootData } from '#app/lib/root-data.ts';
import { staffApi } from '#app/lib/staff-api.server.ts';
import { useTranslation } from '#app/lib/use-translation.ts';
import type { AdminOrder } from '#contract/admin-money.ts';
import { orderStatusSchema, paymentMethodOptions } from '#contract/payments.ts';
import type { Route } from './+types/orders';
import { utcTime } from './money-form.ts';
import { TableScroll } from './table-scroll.tsx';

const filterNames = ['status', 'method', 'site', 'member', 'from', 'to'] as const;

export async function loader({ context, request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const query: Partial<Record<(typeof filterNames)[number] | 'page', string>> = {};
  for (const name of [...filterNames, 'page'] as const) {
    const value = url.searchParams.get(name)?.trim();
    if (value) query[name] = value;
  }
  const api = staffApi(context.api);
  const [result, sites] = await Promise.all([
    api('GET /api/admin/orders.php', { query }),
    api('GET /api/admin/sites.php'),
  ]);
  if (result.status === 422) {
    return {
      orders: [],
      total: 0,
      page: 1,
      pages: 0,
      invalid: true,
      filters: query,
      sites: [],
    };
  }
  if (!result.ok) throw new Response(null, { status: result.status });
  return {
    ...result.data,
    invalid: false,
    filters: query,
    sites: sites.ok ? sites.data.sites.map((site) => ({ id: site.id, name: site.name })) : [],
  };
}

export function StatusBadge({ status }: { status: AdminOrder['status'] }) {
  const { t } = useTranslation();
  const tone =
    status === 'completed'
      ? 'success'
      : status === 'refunded' || status === 'refunding'
        ? 'warning'
        : status === 'pending'
          ? 'info'
          : 'secondary';
  return <span className={`badge text-bg-${tone}`}>{t(`credits:orderStatus.${status}`)}</span>;
}

/**
 * Orders (admins): filtered by status, method, site, member and dates, newest first, 50 a page; the
 * filtered orders download as CSV.
 */
export default function Orders({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { locale } = useRootData();
  const { orders, total, page, pages, filters, sites, invalid } = loaderData;
  const link = (to: number) => `/admin/orders?${new URLSearchParams({ ...filters, page: String(to) })}`;
  // The download takes the list's filters, not its page.
  const exportLink = `/api/admin/orders-export.php?${new URLSearchParams(
    Object.entries(filters).filter(([name]) => name !== 'page'),
  )}`;
  const value = (name: (typeof filterNames)[number]) =>
    (filters as Partial<Record<string, string>>)[name] ?? '';
  return (
    <div>
      <h1 className="h4">{t('admin:orders.heading')}</h1>
      <Form method="get" className="row g-2 align-items-end mb-3" aria-label={t('admin:orders.filters')}>
        <div className="col-6 col-md-2">
          <label htmlFor="orders-status" className="form-label">
            {t('admin:orders.status')}
          </label>
          <select id="orders-status" name="status" className="form-select" defaultValue={value('status')}>
            <option value="">{t('admin:orders.any')}</option>
            {orderStatusSchema.options.map((status) => (
              <option key={status} value={status}>
                {t(`credits:orderStatus.${status}`)}
              </option>
            ))}
          </select>
        </div>
        <div className="col-6 col-md-2">
          <label htmlFor="orders-method" className="form-label">
            {t('admin:orders.method')}
          </label>
          <select id="orders-method" name="method" className="form-select" defaultValue={value('method')}>
            <option value="">{t('admin:orders.any')}</option>
            {paymentMethodOptions.map((method) => (
              <option key={method} value={method}>
                {t(`credits:method.${method}`)}
              </option>
            ))}
          </select>
        </div>
        <div className="col-6 col-md-2">
          <label htmlFor="orders-site" className="form-label">
            {t('admin:orders.site')}
          </label>
          <select id="orders-site" name="site" className="form-select" defaultValue={value('site')}>
            <option value="">{t('admin:orders.any')}</option>
            {sites.map((site) => (
              <option key={site.id} value={site.id}>
                {site.name}
              </option>
            ))}
          </select>
        </div>
        <div className="col-6 col-md-2">
          <label htmlFor="orders-member" className="form-label">
            {t('admin:orders.memberFilter')}
          </label>
          <input
            id="orders-member"
            name="member"
            inputMode="numeric"
            className="form-control"
            defaultValue={value('member')}
          />
        </div>
        <div className="col-6 col-md-1">
          <label htmlFor="orders-from" className="form-label">
            {t('admin:orders.from')}
          </label>
          <input
            id="orders-from"
            name="from"
            type="date"
            className="form-control"
            defaultValue={value('from')}
          />
        </div>
        <div className="col-6 col-md-1">
          <label htmlFor="orders-to" className="form-label">
            {t('admin:orders.to')}
          </label>
          <input id="orders-to" name="to" type="date" className="form-control" defaultValue={value('to')} />
        </div>
        <div className="col-12 col-md-2">
          <button type="submit" className="btn btn-primary w-100">
            {t('admin:orders.submit')}
          </button>
        </div>
      </Form>
      {invalid && (
        <div className="alert alert-warning" role="alert">
          {t('admin:orders.invalidFilters')}
        </div>
      )}
      <div className="d-flex flex-wrap align-items-center gap-2 mb-3">
        <p className="text-body-secondary mb-0 me-auto">{t('admin:orders.total', { count: total })}</p>
        {!invalid && total > 0 && (
          <a className="btn btn-sm btn-outline-secondary" href={exportLink} download>
            {t('admin:orders.csv')}
          </a>
        )}
      </div>
      <TableScroll label={t('admin:orders.heading')}>
        <table className="table table-sm align-middle">
          <thead>
            <tr>
              <th>#</th>
              <th>{t('admin:orders.created')}</th>
              <th>{t('admin:orders.member')}</th>
              <th>{t('admin:orders.site')}</th>
              <th>{t('admin:orders.amount')}</th>
              <th>{t('admin:orders.method')}</th>
              <th>{t('admin:orders.status')}</th>
            </tr>
          </thead>
          <tbody>
            {orders.length === 0 && (
              <tr>
                <td colSpan={7} className="text-body-secondary">
                  {t('admin:orders.none')}
                </td>
              </tr>
            )}
            {orders.map((order) => (
              <tr key={order.id}>
                <td>
                  <Link to={`/admin/orders/${order.id}`}>{order.id}</Link>
                </td>
                <td className="small text-nowrap">{formatDate(order.created_at, locale, utcTime)}</td>
                <td>
                  <Link to={`/admin/members/${order.member.id}`}>{order.member.name}</Link>
                  <div className="small text-body-secondary text-break">{order.member.email}</div>
                </td>
                <td>{order.site.name}</td>
                <td className="text-nowrap">
                  {formatMoney(order.amount, order.currency, locale)}
                  {order.discount && (
                    <span className="small text-body-secondary"> {order.discount.code}</span>
                  )}
                </td>
                <td>{t(`credits:method.${order.paymentmethod}`)}</td>
                <td>
                  <StatusBadge status={order.status} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
      <nav className="d-flex gap-2" aria-label={t('admin:orders.pages')}>
        {page > 1 && (
          <Link className="btn btn-sm btn-outline-secondary" to={link(page - 1)}>
            {t('admin:members.previous')}
          </Link>
        )}
        {page < pages && (
          <Link className="btn btn-sm btn-outline-secondary" to={link(page + 1)}>
            {t('admin:members.next')}
          </Link>
        )}
      </nav>
    </div>
  );
}
