import { useCallback, useEffect, useRef } from 'react';
import { Form, Link, useRevalidator } from 'react-router';
import { FormAlert } from '#app/components/forms/form-field.tsx';
import { formError, formText } from '#app/lib/actions.server.ts';
import { useRootData } from '#app/lib/root-data.ts';
import { staffApi } from '#app/lib/staff-api.server.ts';
import { useTranslation } from '#app/lib/use-translation.ts';
import type { AdminEvent } from '#contract/admin.ts';
import type { Board as BoardData } from '#contract/supervision.ts';
import type { Route } from './+types/board';
import { formatSeconds, languageName, useAdminEvents } from './admin-socket.ts';
import { TableScroll } from './table-scroll.tsx';

export async function loader({ context }: Route.LoaderArgs) {
  const result = await staffApi(context.api)('GET /api/admin/board.php');
  if (!result.ok) throw new Response(null, { status: result.status });
  return { board: result.data };
}

export async function action({ context, request }: Route.ActionArgs) {
  const form = await request.formData();
  const result = await staffApi(context.api)('PUT /api/admin/board.php', {
    body: { report: Number(formText(form, 'report')), action: formText(form, 'action') },
  });
  return result.ok ? { closed: result.data.report } : formError(result);
}

/** How often the board re-reads itself without events: waits pass their target by time alone. */
const refreshMs = 30_000;
/** Events come in bursts (a claim, then a reply, then the queue change): one re-read per burst. */
const burstMs = 500;

function secondsBetween(from: string, to: string): number {
  return Math.max(0, Math.round((new Date(to).getTime() - new Date(from).getTime()) / 1000));
}

function Queues({ board }: { board: BoardData }) {
  const { t } = useTranslation();
  const locale = useRootData().locale;
  if (board.queues.length === 0) return <p className="text-body-secondary">{t('admin:board.noWaiting')}</p>;
  return (
    <TableScroll label={t('admin:board.queues')}>
      <table className="table table-sm align-middle" data-testid="board-queues">
        <thead>
          <tr>
            <th scope="col">{t('admin:inbox.site')}</th>
            <th scope="col">{t('admin:inbox.language')}</th>
            <th scope="col" className="text-end">
              {t('admin:board.waiting')}
            </th>
            <th scope="col" className="text-end">
              {t('admin:board.oldest')}
            </th>
            <th scope="col" className="text-end">
              {t('admin:board.breaches')}
            </th>
          </tr>
        </thead>
        <tbody>
          {board.queues.map((queue) => (
            <tr key={`${queue.site.id}-${queue.language}`}>
              <td>{queue.site.name}</td>
              <td>{languageName(queue.language, locale)}</td>
              <td className="text-end">{queue.waiting}</td>
              <td className="text-end">
                {queue.oldest_waiting_since
                  ? formatSeconds(secondsBetween(queue.oldest_waiting_since, board.at))
                  : '–'}
              </td>
              <td className="text-end">
                {queue.sla_breaches > 0 ? (
                  <span className="badge text-bg-danger">
                    {t('admin:board.breachCount', {
                      count: queue.sla_breaches,
                      target: queue.reply_target_minutes,
                    })}
                  </span>
                ) : (
                  <span className="text-body-secondary">0</span>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}

function Operators({ board }: { board: BoardData }) {
  const { t } = useTranslation();
  return (
    <TableScroll label={t('admin:board.team')}>
      <table className="table table-sm align-middle" data-testid="board-operators">
        <thead>
          <tr>
            <th scope="col">{t('admin:staff.name')}</th>
            <th scope="col">{t('admin:board.status')}</th>
            <th scope="col" className="text-end">
              {t('admin:board.claims')}
            </th>
            <th scope="col" className="text-end">
              {t('admin:board.repliesHour')}
            </th>
            <th scope="col" className="text-end">
              {t('admin:board.startedHour')}
            </th>
          </tr>
        </thead>
        <tbody>
          {board.operators.map((row) => (
            <tr key={row.staff.id}>
              <td>
                {row.staff.name}{' '}
                <span className="small text-body-secondary">{t(`admin:role.${row.staff.role}`)}</span>
              </td>
              <td>
                {row.online ? (
                  <span className="badge text-bg-success">{t('admin:board.online')}</span>
                ) : (
                  <span className="badge text-bg-secondary">{t('admin:board.offline')}</span>
                )}
              </td>
              <td className="text-end">{row.claims}</td>
              <td className="text-end">{row.replies_last_hour}</td>
              <td className="text-end">{row.started_last_hour}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}

function Reports({ board }: { board: BoardData }) {
  const { t } = useTranslation();
  const locale = useRootData().locale;
  if (board.reports.length === 0) return <p className="text-body-secondary">{t('admin:board.noReports')}</p>;
  return (
    <ul className="list-unstyled mb-0" data-testid="board-reports">
      {board.reports.map(({ report, profile, operator }) => (
        <li key={report.id} className="border rounded p-2 mb-2">
          <div className="d-flex flex-wrap gap-2 align-items-baseline">
            <strong>{profile.name}</strong>
            <span className="small text-body-secondary">{profile.site.name}</span>
            <span className="badge text-bg-warning">{t(`admin:reportReason.${report.reason}`)}</span>
            <span className="small text-body-secondary">
              {new Date(report.created_at).toLocaleString(locale)}
            </span>
          </div>
          <p className="small mb-1">
            {operator
              ? t('admin:board.writtenBy', { name: operator.name })
              : report.message?.automated
                ? t('admin:board.writtenByScript')
                : t('admin:board.profileReported')}
            {' · '}
            {t('admin:board.reportedBy', { name: report.reporter.name })}
          </p>
          {report.message?.text && (
            <blockquote className="small border-start ps-2 mb-1 text-break">{report.message.text}</blockquote>
          )}
          {report.text && <p className="small fst-italic mb-1 text-break">{report.text}</p>}
          <div className="d-flex flex-wrap gap-2 align-items-center">
            {report.conversation !== null && (
              <Link className="small" to={`/admin/conversations/${report.conversation}`}>
                {t('admin:board.openConversation')}
              </Link>
            )}
            <Form method="post" className="d-flex gap-2 ms-auto">
              <input type="hidden" name="report" value={report.id} />
              <button type="submit" name="action" value="resolve" className="btn btn-sm btn-primary">
                {t('admin:board.resolve')}
              </button>
              <button
                type="submit"
                name="action"
                value="dismiss"
                className="btn btn-sm btn-outline-secondary"
              >
                {t('admin:board.dismiss')}
              </button>
            </Form>
          </div>
        </li>
      ))}
    </ul>
  );
}

/**
 * The supervisor board (leads and admins): what waits where and for how long, who works now, and the
 * reports about fictional profiles with the operator who wrote the reported message. Server-rendered;
 * the back office's live events (a conversation entered or left the queue, a claim) re-read it.
 */
export default function Board({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { board } = loaderData;
  const { revalidate } = useRevalidator();
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const reread = useCallback(() => {
    if (timer.current) return;
    timer.current = setTimeout(() => {
      timer.current = undefined;
      void revalidate();
    }, burstMs);
  }, [revalidate]);
  const status = useAdminEvents((event: AdminEvent) => {
    if (event.type === 'inbox' || event.type === 'claim' || event.type === 'ready') reread();
  });
  useEffect(() => {
    const interval = setInterval(reread, refreshMs);
    return () => {
      clearInterval(interval);
      clearTimeout(timer.current);
    };
  }, [reread]);
  const waiting = board.queues.reduce((sum, queue) => sum + queue.waiting, 0);
  const breaches = board.queues.reduce((sum, queue) => sum + queue.sla_breaches, 0);
  return (
    <div>
      <div className="d-flex flex-wrap align-items-baseline gap-3 mb-3">
        <h1 className="h4 mb-0">{t('admin:nav.board')}</h1>
        <span className="small text-body-secondary" aria-live="polite">
          {status === 'ready' ? t('admin:inbox.live') : t('admin:inbox.connecting')}
        </span>
        <span className="ms-auto" data-testid="board-summary">
          {t('admin:board.summary', { count: waiting, breaches })}
        </span>
      </div>
      {actionData && 'closed' in actionData && (
        <div className="alert alert-success py-2" role="status">
          {t('admin:board.closed')}
        </div>
      )}
      {actionData && 'errors' in actionData && <FormAlert errors={actionData.errors} />}
      <div className="row g-4">
        <section className="col-12 col-xl-7" aria-labelledby="board-queues-title">
          <h2 className="h5" id="board-queues-title">
            {t('admin:board.queues')}
          </h2>
          <Queues board={board} />
          <h2 className="h5 mt-4" id="board-team-title">
            {t('admin:board.team')}
          </h2>
          <Operators board={board} />
        </section>
        <section className="col-12 col-xl-5" aria-labelledby="board-reports-title">
          <h2 className="h5" id="board-reports-title">
            {t('admin:board.reports')}
          </h2>
          <p className="small text-body-secondary">{t('admin:board.reportsLead')}</p>
          <Reports board={board} />
        </section>
      </div>
    </div>
  );
}
