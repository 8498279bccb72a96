import { Form, Link, useNavigation } from 'react-router';
import { FormAlert } from '#app/components/forms/form-field.tsx';
import { formError, formText } from '#app/lib/actions.server.ts';
import { useRootData } from '#app/lib/root-data.ts';
import { staffApi } from '#app/lib/staff-api.server.ts';
import { useTranslation } from '#app/lib/use-translation.ts';
import { type AppealQueueItem, type Report, reportActionOptions } from '#contract/admin-members.ts';
import type { Route } from './+types/reports';
import { ReportCount, StatusBadge } from './members.tsx';

export async function loader({ context, request }: Route.LoaderArgs) {
  const status = new URL(request.url).searchParams.get('status') === 'handled' ? 'handled' : 'open';
  const call = staffApi(context.api);
  const [result, appeals] = await Promise.all([
    call('GET /api/admin/reports.php', { query: { status } }),
    call('GET /api/admin/appeals.php', { query: { status: status === 'open' ? 'open' : 'decided' } }),
  ]);
  if (!result.ok) throw new Response(null, { status: result.status });
  return { reports: result.data.reports, appeals: appeals.ok ? appeals.data.appeals : [], status };
}

export async function action({ context, request }: Route.ActionArgs) {
  const form = await request.formData();
  if (formText(form, 'intent') === 'appeal') {
    const decided = await staffApi(context.api)('PUT /api/admin/appeals.php', {
      body: {
        id: Number(formText(form, 'id')),
        decision: formText(form, 'decision'),
        reason: formText(form, 'reason'),
      },
    });
    return decided.ok ? { appealDecided: decided.data.appeal.id } : formError(decided);
  }
  const photo = Number(formText(form, 'photo'));
  const result = await staffApi(context.api)('PUT /api/admin/reports.php', {
    body: {
      id: Number(formText(form, 'id')),
      action: formText(form, 'action'),
      reason: formText(form, 'reason'),
      ...(photo > 0 ? { photo } : {}),
    },
  });
  return result.ok ? { handled: result.data.report.id } : formError(result);
}

/** Reports, read-only (the member page shows those by and about a member). */
export function ReportList({ reports }: { reports: Report[] }) {
  const { t } = useTranslation();
  const locale = useRootData().locale;
  if (reports.length === 0)
    return <p className="small text-body-secondary mb-0">{t('admin:reports.none')}</p>;
  return (
    <ul className="list-unstyled small mb-0">
      {reports.map((report) => (
        <li key={report.id} className="border-top py-1">
          {new Date(report.created_at).toLocaleDateString(locale)} ·{' '}
          {t(`admin:reportReason.${report.reason}`)} ·{' '}
          {report.reported ? (
            <Link to={`/admin/members/${report.reported.profile_id}`}>{report.reported.name}</Link>
          ) : (
            '–'
          )}{' '}
          ← {report.reporter.name} ·{' '}
          {report.action ? t(`admin:reportAction.${report.action}`) : t('admin:reports.open')}
          {report.text && <div className="text-break">“{report.text}”</div>}
        </li>
      ))}
    </ul>
  );
}

/** Members' appeals against a strike: the strike, the member's words, grant or refuse (decision 054). */
function AppealList({ appeals, busy }: { appeals: AppealQueueItem[]; busy: boolean }) {
  const { t } = useTranslation();
  const locale = useRootData().locale;
  if (appeals.length === 0) return null;
  return (
    <section className="mb-4" aria-labelledby="appeals-title">
      <h2 className="h5" id="appeals-title">
        {t('admin:appeals.heading')}
      </h2>
      <div className="row g-3">
        {appeals.map((appeal) => (
          <div key={appeal.id} className="col-12 col-xl-6">
            <article className="card h-100 border-warning" data-testid={`appeal-${appeal.id}`}>
              <div className="card-body">
                <h3 className="h6 d-flex flex-wrap gap-2 align-items-center">
                  <Link to={`/admin/members/${appeal.member.profile_id}`}>{appeal.member.name}</Link>
                  <span className="badge text-bg-light">{appeal.member.site}</span>
                  <span className="badge text-bg-warning">
                    {t(`admin:appeals.consequence_${appeal.strike.consequence}`)}
                  </span>
                </h3>
                <p className="small text-body-secondary mb-2">
                  {t('admin:appeals.strike', {
                    number: appeal.strike.number,
                    date: new Date(appeal.strike.created_at).toLocaleString(locale, {
                      dateStyle: 'short',
                      timeStyle: 'short',
                    }),
                  })}
                </p>
                <p className="text-break">“{appeal.text}”</p>
                {appeal.status === 'open' ? (
                  <Form method="post" className="row g-2 align-items-end">
                    <input type="hidden" name="intent" value="appeal" />
                    <input type="hidden" name="id" value={appeal.id} />
                    <div className="col-12">
                      <label className="form-label small" htmlFor={`appeal-reason-${appeal.id}`}>
                        {t('admin:action.reason')}
                      </label>
                      <input
                        id={`appeal-reason-${appeal.id}`}
                        name="reason"
                        className="form-control form-control-sm"
                        required
                        maxLength={500}
                      />
                    </div>
                    <div className="col-12 d-flex gap-2">
                      <button
                        type="submit"
                        name="decision"
                        value="grant"
                        className="btn btn-sm btn-success"
                        disabled={busy}
                      >
                        {t('admin:appeals.grant')}
                      </button>
                      <button
                        type="submit"
                        name="decision"
                        value="refuse"
                        className="btn btn-sm btn-outline-danger"
                        disabled={busy}
                      >
                        {t('admin:appeals.refuse')}
                      </button>
                    </div>
                  </Form>
                ) : (
                  <p className="small mb-0">
                    {t(`admin:appeals.status_${appeal.status}`)}
                    {appeal.decided_by && ` · ${appeal.decided_by.name}`}
                  </p>
                )}
              </div>
            </article>
          </div>
        ))}
      </div>
    </section>
  );
}

/** The moderators' queue: open reports first (oldest first), each with its evidence and the actions. */
export default function Reports({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const locale = useRootData().locale;
  const navigation = useNavigation();
  const { reports, appeals, status } = loaderData;
  const errors = actionData && 'errors' in actionData ? actionData.errors : undefined;
  return (
    <div>
      <h1 className="h4">{t('admin:reports.heading')}</h1>
      <ul className="nav nav-pills mb-3">
        <li className="nav-item">
          <Link
            aria-current={status === 'open' ? 'page' : undefined}
            className={`nav-link${status === 'open' ? ' active' : ''}`}
            to="/admin/reports"
          >
            {t('admin:reports.open')}
          </Link>
        </li>
        <li className="nav-item">
          <Link
            aria-current={status === 'handled' ? 'page' : undefined}
            className={`nav-link${status === 'handled' ? ' active' : ''}`}
            to="/admin/reports?status=handled"
          >
            {t('admin:reports.handled')}
          </Link>
        </li>
      </ul>
      {actionData && 'handled' in actionData && (
        <div className="alert alert-success" role="status">
          {t('admin:reports.done')}
        </div>
      )}
      <FormAlert errors={errors} />
      {actionData && 'appealDecided' in actionData && (
        <div className="alert alert-success" role="status">
          {t('admin:appeals.done')}
        </div>
      )}
      <AppealList appeals={appeals} busy={navigation.state === 'submitting'} />
      {reports.length === 0 && <p>{t('admin:reports.none')}</p>}
      <div className="row g-3">
        {reports.map((report) => (
          <div key={report.id} className="col-12 col-xl-6">
            <article className="card h-100" data-testid={`report-${report.id}`}>
              <div className="card-body">
                <h2 className="h6 d-flex flex-wrap gap-2 align-items-center">
                  {report.reported ? (
                    <Link to={`/admin/members/${report.reported.profile_id}`}>{report.reported.name}</Link>
                  ) : (
                    '–'
                  )}
                  {report.reported && <StatusBadge status={report.reported.user_status} />}
                  {report.reported && <ReportCount count={report.reported.reports_about} />}
                  <span className="badge text-bg-light">{t(`admin:reportReason.${report.reason}`)}</span>
                </h2>
                <p className="small text-body-secondary mb-2">
                  {t('admin:reports.by', {
                    name: report.reporter.name,
                    date: new Date(report.created_at).toLocaleString(locale, {
                      dateStyle: 'short',
                      timeStyle: 'short',
                    }),
                  })}
                </p>
                {report.text && <p className="text-break">“{report.text}”</p>}
                {report.evidence && (
                  <blockquote className="border-start border-3 ps-2 small" data-testid="evidence">
                    <div className="text-body-secondary">{t('admin:reports.evidence')}</div>
                    <div className="text-break">{report.evidence.text ?? `[${report.evidence.kind}]`}</div>
                  </blockquote>
                )}
                {report.reported && report.reported.photos.length > 0 && (
                  <div className="d-flex flex-wrap gap-1 mb-2">
                    {report.reported.photos.map((photo) => (
                      <img
                        key={photo.id}
                        src={photo.thumb_url}
                        alt={`#${photo.id}`}
                        width={64}
                        height={64}
                        className="rounded object-fit-cover"
                      />
                    ))}
                  </div>
                )}
                {report.status === 'open' ? (
                  <Form method="post" className="row g-2 align-items-end">
                    <input type="hidden" name="id" value={report.id} />
                    <div className="col-6">
                      <label className="form-label small" htmlFor={`action-${report.id}`}>
                        {t('admin:reports.action')}
                      </label>
                      <select id={`action-${report.id}`} name="action" className="form-select form-select-sm">
                        {reportActionOptions
                          .filter((option) => report.reported || option === 'dismiss')
                          .map((option) => (
                            <option key={option} value={option}>
                              {t(`admin:reportAction.${option}`)}
                            </option>
                          ))}
                      </select>
                    </div>
                    {report.reported && report.reported.photos.length > 0 && (
                      <div className="col-6">
                        <label className="form-label small" htmlFor={`photo-${report.id}`}>
                          {t('admin:action.photo')}
                        </label>
                        <select id={`photo-${report.id}`} name="photo" className="form-select form-select-sm">
                          {report.reported.photos.map((photo) => (
                            <option key={photo.id} value={photo.id}>
                              #{photo.id}
                            </option>
                          ))}
                        </select>
                      </div>
                    )}
                    <div className="col-12">
                      <label className="form-label small" htmlFor={`reason-${report.id}`}>
                        {t('admin:action.reason')}
                      </label>
                      <input
                        id={`reason-${report.id}`}
                        name="reason"
                        className="form-control form-control-sm"
                        required
                        maxLength={500}
                      />
                    </div>
                    <div className="col-12 form-check ms-2">
                      <input
                        className="form-check-input"
                        type="checkbox"
                        id={`confirm-${report.id}`}
                        required
                      />
                      <label className="form-check-label small" htmlFor={`confirm-${report.id}`}>
                        {t('admin:action.confirm')}
                      </label>
                    </div>
                    <div className="col-12">
                      <button
                        type="submit"
                        className="btn btn-sm btn-primary"
                        disabled={navigation.state === 'submitting'}
                      >
                        {t('admin:reports.submit')}
                      </button>
                    </div>
                  </Form>
                ) : (
                  <p className="small mb-0">
                    {report.action && t(`admin:reportAction.${report.action}`)}
                    {report.handled_by && ` · ${report.handled_by.name}`}
                  </p>
                )}
              </div>
            </article>
          </div>
        ))}
      </div>
    </div>
  );
}
