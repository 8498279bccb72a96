import { Form } from 'react-router';
import { staffApi } from '#app/lib/staff-api.server.ts';
import { useTranslation } from '#app/lib/use-translation.ts';
import type { Route } from './+types/stats';
import { formatSeconds } from './admin-socket.ts';
import { PeriodAndSiteFields } from './period-fields.tsx';
import { TableScroll } from './table-scroll.tsx';

const dayPattern = /^\d{4}-\d{2}-\d{2}$/;

export async function loader({ context, request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const pick = (name: string) => url.searchParams.get(name)?.trim() ?? '';
  const today = new Date().toISOString().slice(0, 10);
  const weekAgo = new Date(Date.now() - 6 * 86_400_000).toISOString().slice(0, 10);
  const filters = {
    from: dayPattern.test(pick('from')) ? pick('from') : weekAgo,
    to: dayPattern.test(pick('to')) ? pick('to') : today,
    site: /^\d+$/.test(pick('site')) ? pick('site') : '',
  };
  const query = Object.fromEntries(Object.entries(filters).filter(([, value]) => value));
  const api = staffApi(context.api);
  const [result, sites] = await Promise.all([
    api('GET /api/admin/operator-stats.php', { query }),
    api('GET /api/admin/sites.php'),
  ]);
  if (!result.ok && result.status !== 422) throw new Response(null, { status: result.status });
  return {
    filters,
    query: new URLSearchParams(query).toString(),
    stats: result.ok ? result.data : null,
    sites: sites.ok ? sites.data.sites.map((site) => ({ id: site.id, name: site.name })) : [],
  };
}

/**
 * The operators' numbers over any range: replies, conversations, median and 90th-percentile reply
 * time, credits members spent within 24 hours after their replies, and reports about those replies.
 */
export default function Stats({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation();
  const { stats, filters, sites, query } = loaderData;
  const number = (value: number) => new Intl.NumberFormat(i18n.language).format(value);
  return (
    <div style={{ maxWidth: 1200 }}>
      <h1 className="h4">{t('admin:stats.perOperator')}</h1>
      <p className="small text-body-secondary">{t('numbers:earnings.rule')}</p>
      <Form method="get" className="row g-2 align-items-end mb-3" aria-label={t('admin:numbers.filters')}>
        <PeriodAndSiteFields
          idPrefix="operators"
          filters={filters}
          sites={sites}
          dateColumn="col-6 col-md-3"
          siteColumn="col-12 col-md-3"
        />
        <div className="col-12 col-md-3 d-flex gap-2">
          <button type="submit" className="btn btn-primary flex-grow-1">
            {t('admin:numbers.show')}
          </button>
          <a
            className="btn btn-outline-secondary"
            href={`/api/admin/operator-stats-export.php?${query}`}
            download
          >
            {t('numbers:csv.operators')}
          </a>
        </div>
      </Form>
      {!stats ? (
        <div className="alert alert-warning" role="alert">
          {t('admin:numbers.badRange')}
        </div>
      ) : (
        <TableScroll label={t('admin:stats.perOperator')}>
          <table className="table table-sm align-middle" data-testid="operator-numbers">
            <thead>
              <tr>
                <th scope="col">{t('admin:staff.name')}</th>
                <th scope="col">{t('admin:staff.role')}</th>
                <th scope="col" className="text-end">
                  {t('numbers:earnings.replies')}
                </th>
                <th scope="col" className="text-end">
                  {t('numbers:operators.conversations')}
                </th>
                <th scope="col" className="text-end">
                  {t('admin:stats.medianReply')}
                </th>
                <th scope="col" className="text-end">
                  {t('numbers:operators.p90')}
                </th>
                <th scope="col" className="text-end">
                  {t('numbers:earnings.earned')}
                </th>
                <th scope="col" className="text-end">
                  {t('numbers:operators.reports')}
                </th>
              </tr>
            </thead>
            <tbody>
              {stats.operators.map((operator) => (
                <tr key={operator.staff.id}>
                  <td>{operator.staff.name}</td>
                  <td>{t(`admin:role.${operator.staff.role}`)}</td>
                  <td className="text-end">{number(operator.replies)}</td>
                  <td className="text-end">{number(operator.conversations)}</td>
                  <td className="text-end">{formatSeconds(operator.median_reply_seconds)}</td>
                  <td className="text-end">{formatSeconds(operator.p90_reply_seconds)}</td>
                  <td className="text-end">{number(operator.earned_credits)}</td>
                  <td className="text-end">{number(operator.reports)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
    </div>
  );
}
