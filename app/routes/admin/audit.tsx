import { Link } from 'react-router';
import { formatDate } from '#app/lib/format.ts';
import { useRootData } from '#app/lib/root-data.ts';
import { staffApi } from '#app/lib/staff-api.server.ts';
import { useTranslation } from '#app/lib/use-translation.ts';
import type { Route } from './+types/audit';
import { TableScroll } from './table-scroll.tsx';

export async function loader({ context, request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const page = Math.max(1, Number(url.searchParams.get('page')) || 1);
  const staff = url.searchParams.get('staff');
  const result = await staffApi(context.api)('GET /api/admin/audit.php', {
    query: { page, ...(staff && /^\d{1,9}$/.test(staff) ? { staff: Number(staff) } : {}) },
  });
  if (!result.ok) throw new Response(null, { status: result.status });
  return { entries: result.data.entries, page, staff };
}

/** The audit log (admins): every staff read of a conversation and every staff write, newest first. */
export default function Audit({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const locale = useRootData().locale;
  const { entries, page, staff } = loaderData;
  const link = (to: number) => `/admin/audit?page=${to}${staff ? `&staff=${staff}` : ''}`;
  return (
    <div>
      <h1 className="h4">{t('admin:audit.heading')}</h1>
      <TableScroll label={t('admin:audit.heading')}>
        <table className="table table-sm">
          <thead>
            <tr>
              <th>{t('admin:audit.at')}</th>
              <th>{t('admin:audit.staff')}</th>
              <th>{t('admin:audit.action')}</th>
              <th>{t('admin:audit.object')}</th>
              <th>{t('admin:audit.ip')}</th>
            </tr>
          </thead>
          <tbody>
            {entries.map((entry) => (
              <tr key={entry.id}>
                <td className="text-nowrap">
                  {formatDate(entry.at, locale, { dateStyle: 'short', timeStyle: 'medium' })}
                </td>
                <td>
                  {entry.staff ? (
                    <Link to={`/admin/audit?staff=${entry.staff.id}`}>{entry.staff.name}</Link>
                  ) : (
                    '–'
                  )}
                </td>
                <td>
                  <code>{entry.action}</code>
                </td>
                <td>{entry.object ?? ''}</td>
                <td>{entry.ip ?? ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
      <nav className="d-flex gap-2" aria-label={t('admin:audit.pages')}>
        {page > 1 && (
          <Link className="btn btn-sm btn-outline-secondary" to={link(page - 1)}>
            {t('admin:audit.newer')}
          </Link>
        )}
        {entries.length === 100 && (
          <Link className="btn btn-sm btn-outline-secondary" to={link(page + 1)}>
            {t('admin:audit.older')}
          </Link>
        )}
      </nav>
    </div>
  );
}
