import { staffApi } from '#app/lib/staff-api.server.ts';
import { useTranslation } from '#app/lib/use-translation.ts';
import type { Route } from './+types/stats';
import { formatSeconds } from './admin-socket.ts';
import { TableScroll } from './table-scroll.tsx';

export async function loader({ context }: Route.LoaderArgs) {
  const result = await staffApi(context.api)('GET /api/admin/operator-stats.php');
  if (!result.ok) throw new Response(null, { status: result.status });
  return { stats: result.data };
}

/** Per-operator figures for admins: replies today and the median time members waited for them. */
export default function Stats({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { stats } = loaderData;
  return (
    <div>
      <h1 className="h4">{t('admin:stats.perOperator')}</h1>
      <TableScroll label={t('admin:stats.perOperator')}>
        <table className="table table-sm">
          <thead>
            <tr>
              <th>{t('admin:staff.name')}</th>
              <th>{t('admin:staff.role')}</th>
              <th className="text-end">{t('admin:stats.repliesToday')}</th>
              <th className="text-end">{t('admin:stats.medianReply')}</th>
            </tr>
          </thead>
          <tbody>
            {(stats.operators ?? []).map((operator) => (
              <tr key={operator.id}>
                <td>{operator.name}</td>
                <td>{t(`admin:role.${operator.role}`)}</td>
                <td className="text-end">{operator.replies_today}</td>
                <td className="text-end">{formatSeconds(operator.median_reply_seconds)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
    </div>
  );
}
