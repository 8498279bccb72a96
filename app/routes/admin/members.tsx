import { Form, Link } from 'react-router';
import { staffApi } from '#app/lib/staff-api.server.ts';
import { useTranslation } from '#app/lib/use-translation.ts';
import { memberStatusOptions } from '#contract/admin-members.ts';
import type { Route } from './+types/members';
import { TableScroll } from './table-scroll.tsx';

export async function loader({ context, request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const query: Partial<Record<'q' | 'site' | 'status' | 'page', string>> = {};
  for (const name of ['q', 'site', 'status', 'page'] as const) {
    const value = url.searchParams.get(name)?.trim();
    if (value) query[name] = value;
  }
  const result = await staffApi(context.api)('GET /api/admin/members.php', { query });
  if (!result.ok) throw new Response(null, { status: result.status });
  return {
    ...result.data,
    page: Math.max(1, Number(query.page) || 1),
    filters: { q: query.q ?? '', status: query.status ?? '', site: query.site ?? '' },
  };
}

/** Moderators find members by e-mail, name or id; repeat offenders show their report count. */
export default function Members({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { members, total, page, filters } = loaderData;
  const link = (to: number) =>
    `/admin/members?${new URLSearchParams({ ...Object.fromEntries(Object.entries(filters).filter(([, value]) => value)), page: String(to) })}`;
  return (
    <div>
      <h1 className="h4">{t('admin:members.heading')}</h1>
      <Form method="get" className="row g-2 align-items-end mb-3" role="search">
        <div className="col-12 col-md-5">
          <label htmlFor="members-q" className="form-label">
            {t('admin:members.search')}
          </label>
          <input id="members-q" name="q" type="search" className="form-control" defaultValue={filters.q} />
        </div>
        <div className="col-6 col-md-3">
          <label htmlFor="members-status" className="form-label">
            {t('admin:members.status')}
          </label>
          <select id="members-status" name="status" className="form-select" defaultValue={filters.status}>
            <option value="">{t('admin:members.anyStatus')}</option>
            {memberStatusOptions.map((status) => (
              <option key={status} value={status}>
                {t(`admin:memberStatus.${status}`)}
              </option>
            ))}
          </select>
        </div>
        <div className="col-6 col-md-2">
          <label htmlFor="members-site" className="form-label">
            {t('admin:members.site')}
          </label>
          <input
            id="members-site"
            name="site"
            inputMode="numeric"
            className="form-control"
            defaultValue={filters.site}
          />
        </div>
        <div className="col-12 col-md-2">
          <button type="submit" className="btn btn-primary w-100">
            {t('admin:members.submit')}
          </button>
        </div>
      </Form>
      <p className="text-body-secondary">{t('admin:members.total', { count: total })}</p>
      <TableScroll label={t('admin:members.heading')}>
        <table className="table table-sm align-middle">
          <thead>
            <tr>
              <th>{t('admin:members.name')}</th>
              <th>{t('admin:members.email')}</th>
              <th>{t('admin:members.site')}</th>
              <th>{t('admin:members.status')}</th>
              <th>{t('admin:members.credits')}</th>
              <th>{t('admin:members.reports')}</th>
            </tr>
          </thead>
          <tbody>
            {members.map((member) => (
              <tr key={member.profile.id}>
                <td>
                  <Link to={`/admin/members/${member.profile.id}`}>{member.profile.name}</Link>
                  <span className="text-body-secondary small"> #{member.profile.id}</span>
                </td>
                <td className="text-break">{member.user.email}</td>
                <td>{member.user.site.name}</td>
                <td>
                  <StatusBadge status={member.user.status} />
                </td>
                <td>{member.user.credits}</td>
                <td>
                  <ReportCount count={member.reports_about} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
      <nav className="d-flex gap-2" aria-label={t('admin:members.pages')}>
        {page > 1 && (
          <Link className="btn btn-sm btn-outline-secondary" to={link(page - 1)}>
            {t('admin:members.previous')}
          </Link>
        )}
        {page * 50 < total && (
          <Link className="btn btn-sm btn-outline-secondary" to={link(page + 1)}>
            {t('admin:members.next')}
          </Link>
        )}
      </nav>
    </div>
  );
}

export function StatusBadge({ status }: { status: string }) {
  const { t } = useTranslation();
  const tone = status === 'active' ? 'success' : status === 'banned' ? 'danger' : 'secondary';
  return <span className={`badge text-bg-${tone}`}>{t(`admin:memberStatus.${status}`)}</span>;
}

/** Reports about a member; three or more mark a repeat offender. */
export function ReportCount({ count }: { count: number }) {
  const { t } = useTranslation();
  if (count === 0) return <span className="text-body-secondary">0</span>;
  return (
    <span
      className={`badge ${count >= 3 ? 'text-bg-danger' : 'text-bg-warning'}`}
      title={t('admin:members.reportsAbout', { count })}
    >
      {count}
    </span>
  );
}
