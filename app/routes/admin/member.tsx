import type { ReactNode } from 'react';
import { Form, Link, useNavigation } from 'react-router';
import { FormAlert } from '#app/components/forms/form-field.tsx';
import { useStaff } from '#app/layouts/admin-layout.tsx';
import { formError, formText } from '#app/lib/actions.server.ts';
import { useRootData } from '#app/lib/root-data.ts';
import { staffApi } from '#app/lib/staff-api.server.ts';
import { useTranslation } from '#app/lib/use-translation.ts';
import type { ErrorBody } from '#contract/common.ts';
import type { Route } from './+types/member';
import { ReportCount, StatusBadge } from './members.tsx';
import { ChargebackBadge } from './order.tsx';
import { ReportList } from './reports.tsx';
import { TableScroll } from './table-scroll.tsx';

export async function loader({ context, params }: Route.LoaderArgs) {
  const id = Number(params.id);
  if (!Number.isInteger(id) || id <= 0) throw new Response(null, { status: 404 });
  const result = await staffApi(context.api)('GET /api/admin/member.php', { query: { id } });
  if (!result.ok) throw new Response(null, { status: result.status });
  return { detail: result.data };
}

/** Every member action: one form each, with the reason; the API checks the role and writes the audit. */
export async function action({ context, request, params }: Route.ActionArgs) {
  const form = await request.formData();
  const member = Number(params.id);
  const reason = formText(form, 'reason');
  const intent = formText(form, 'intent');
  const api = staffApi(context.api);
  const calls: Record<string, () => Promise<{ ok: true } | { ok: false; status: number; error: ErrorBody }>> =
    {
      ban: () => api('PUT /api/admin/member.php', { body: { id: member, status: 'banned', reason } }),
      unban: () => api('PUT /api/admin/member.php', { body: { id: member, status: 'active', reason } }),
      credits: () =>
        api('POST /api/admin/credits.php', {
          body: { member, amount: Number(formText(form, 'amount')), reason },
        }),
      photo: () =>
        api('DELETE /api/admin/member-photo.php', {
          body: { photo: Number(formText(form, 'photo')), reason },
        }),
      refund: () =>
        api('POST /api/admin/refund.php', { body: { order: Number(formText(form, 'order')), reason } }),
      activation: () => api('POST /api/admin/member-activation.php', { body: { member, reason } }),
      deletion: () => api('POST /api/admin/member-deletion.php', { body: { member, reason } }),
    };
  const call = calls[intent];
  if (!call) throw new Response(null, { status: 400 });
  const result = await call();
  return result.ok ? { done: intent } : formError(result);
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="card mb-3">
      <div className="card-body">
        <h2 className="h6 card-title">{title}</h2>
        {children}
      </div>
    </section>
  );
}

/** A member action: the reason is required and a checkbox confirms it. */
function ActionForm({
  intent,
  label,
  danger,
  children,
}: {
  intent: string;
  label: string;
  danger?: boolean;
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  return (
    <Form method="post" className="mb-3 border-top pt-2" data-testid={`action-${intent}`}>
      <input type="hidden" name="intent" value={intent} />
      {children}
      <div className="mb-2">
        <label className="form-label small" htmlFor={`reason-${intent}`}>
          {t('admin:action.reason')}
        </label>
        <input
          id={`reason-${intent}`}
          name="reason"
          className="form-control form-control-sm"
          required
          maxLength={500}
        />
      </div>
      <div className="form-check mb-2">
        <input className="form-check-input" type="checkbox" id={`confirm-${intent}`} required />
        <label className="form-check-label small" htmlFor={`confirm-${intent}`}>
          {t('admin:action.confirm')}
        </label>
      </div>
      <button
        type="submit"
        className={`btn btn-sm ${danger ? 'btn-danger' : 'btn-outline-primary'}`}
        disabled={navigation.state === 'submitting'}
      >
        {label}
      </button>
    </Form>
  );
}

export default function MemberPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const locale = useRootData().locale;
  const staff = useStaff();
  const { detail } = loaderData;
  const { member } = detail;
  const errors = actionData && 'errors' in actionData ? actionData.errors : undefined;
  const when = (iso: string | null) =>
    iso ? new Date(iso).toLocaleString(locale, { dateStyle: 'short', timeStyle: 'short' }) : '–';
  const isAdmin = staff?.role === 'admin';
  return (
    <div>
      <p>
        <Link to="/admin/members">← {t('admin:members.heading')}</Link>
      </p>
      <h1 className="h4 d-flex flex-wrap gap-2 align-items-center">
        {member.profile.name} <span className="text-body-secondary small">#{member.profile.id}</span>
        <StatusBadge status={member.user.status} />
        <ReportCount count={member.reports_about} />
        {member.user.chargeback_at && <ChargebackBadge at={member.user.chargeback_at} />}
      </h1>
      {actionData && 'done' in actionData && (
        <div className="alert alert-success" role="status">
          {t('admin:action.done')}
        </div>
      )}
      <FormAlert errors={errors} />
      {errors?.body.fields && (
        <div className="alert alert-danger" role="alert">
          {Object.entries(errors.body.fields)
            .map(([field, code]) => `${field}: ${t(`errors:field.${code}`)}`)
            .join(' · ')}
        </div>
      )}
      <div className="row g-3">
        <div className="col-12 col-lg-7">
          <Section title={t('admin:member.account')}>
            <dl className="row small mb-0">
              <dt className="col-5">{t('admin:members.email')}</dt>
              <dd className="col-7 text-break">{member.user.email ?? '–'}</dd>
              <dt className="col-5">{t('admin:member.site')}</dt>
              <dd className="col-7">{member.user.site.name}</dd>
              <dt className="col-5">{t('admin:member.language')}</dt>
              <dd className="col-7">{member.user.language}</dd>
              <dt className="col-5">{t('admin:members.credits')}</dt>
              <dd className="col-7">{member.user.credits}</dd>
              <dt className="col-5">{t('admin:member.paid')}</dt>
              <dd className="col-7">{member.user.paid_user ? '✓' : '–'}</dd>
              <dt className="col-5">{t('admin:member.signup')}</dt>
              <dd className="col-7">{when(member.user.signup_date)}</dd>
              <dt className="col-5">{t('admin:member.lastLogin')}</dt>
              <dd className="col-7">{when(member.user.last_login)}</dd>
              <dt className="col-5">{t('admin:member.trafficsource')}</dt>
              <dd className="col-7">
                {detail.trafficsource
                  ? Object.entries(detail.trafficsource)
                      .map(([key, value]) => `${key}=${value}`)
                      .join(', ')
                  : '–'}
              </dd>
              <dt className="col-5">{t('admin:member.notificationsOff')}</dt>
              <dd className="col-7">{detail.notifications_disabled.join(', ') || '–'}</dd>
            </dl>
          </Section>
          <Section title={t('admin:member.profile')}>
            <dl className="row small mb-0">
              <dt className="col-5">{t('admin:member.birthdate')}</dt>
              <dd className="col-7">{detail.profile.birthdate}</dd>
              <dt className="col-5">{t('admin:member.country')}</dt>
              <dd className="col-7">
                {member.profile.country} {detail.profile.countryregion ?? ''}
              </dd>
              <dt className="col-5">{t('admin:member.about')}</dt>
              <dd className="col-7 text-break">{detail.profile.about ?? '–'}</dd>
            </dl>
          </Section>
          <Section title={t('admin:member.photos')}>
            {detail.photos.length === 0 && <p className="small text-body-secondary">–</p>}
            <div className="d-flex flex-wrap gap-2">
              {detail.photos.map((photo) => (
                <figure key={photo.id} className="m-0" style={{ width: 120 }}>
                  <img
                    src={photo.thumb_url}
                    alt=""
                    width={120}
                    height={120}
                    className="rounded object-fit-cover"
                  />
                  <figcaption className="small">
                    #{photo.id} · {t(`admin:photoStatus.${photo.moderation}`)}
                  </figcaption>
                </figure>
              ))}
            </div>
          </Section>
          <Section title={t('admin:member.sessions')}>
            <ul className="small mb-0">
              {detail.sessions.map((session) => (
                <li key={session.created_at}>
                  {when(session.last_seen_at)} · {session.user_agent ?? '–'}
                </li>
              ))}
              {detail.sessions.length === 0 && <li>–</li>}
            </ul>
          </Section>
          <Section title={t('admin:member.orders')}>
            {detail.orders.length === 0 && <p className="small text-body-secondary mb-0">–</p>}
            <TableScroll label={t('admin:member.orders')}>
              <table className="table table-sm small">
                <tbody>
                  {detail.orders.map((order) => (
                    <tr key={order.id}>
                      <td>#{order.id}</td>
                      <td>{when(order.created_at)}</td>
                      <td>
                        {(order.amount_cents / 100).toLocaleString(locale, {
                          style: 'currency',
                          currency: order.currency,
                        })}
                      </td>
                      <td>{order.credits}</td>
                      <td>{order.payment_method}</td>
                      <td>{order.status}</td>
                      <td className="text-break">{order.provider_payment_id ?? ''}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableScroll>
          </Section>
          <Section title={t('admin:member.ledger')}>
            <TableScroll label={t('admin:member.ledger')}>
              <table className="table table-sm small">
                <tbody>
                  {detail.ledger.map((entry) => (
                    <tr key={entry.id}>
                      <td>{when(entry.at)}</td>
                      <td>{entry.delta > 0 ? `+${entry.delta}` : entry.delta}</td>
                      <td>{entry.balance_after}</td>
                      <td>{entry.reason}</td>
                      <td>{entry.staff ? `${entry.staff.name}: ${entry.note ?? ''}` : ''}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableScroll>
          </Section>
          <Section title={t('admin:member.reportsAbout')}>
            <ReportList reports={detail.reports_about} />
          </Section>
          <Section title={t('admin:member.reportsBy')}>
            <ReportList reports={detail.reports_by} />
          </Section>
        </div>
        <div className="col-12 col-lg-5">
          <Section title={t('admin:member.actions')}>
            {member.user.status === 'banned' ? (
              <ActionForm intent="unban" label={t('admin:action.unban')} />
            ) : (
              <ActionForm intent="ban" label={t('admin:action.ban')} danger />
            )}
            {detail.photos.length > 0 && (
              <ActionForm intent="photo" label={t('admin:action.removePhoto')} danger>
                <label className="form-label small" htmlFor="photo-select">
                  {t('admin:action.photo')}
                </label>
                <select id="photo-select" name="photo" className="form-select form-select-sm mb-2">
                  {detail.photos.map((photo) => (
                    <option key={photo.id} value={photo.id}>
                      #{photo.id}
                    </option>
                  ))}
                </select>
              </ActionForm>
            )}
            {member.user.status === 'not_confirmed' && (
              <ActionForm intent="activation" label={t('admin:action.resendActivation')} />
            )}
            {(member.user.status === 'active' ||
              member.user.status === 'not_confirmed' ||
              member.user.status === 'banned') && (
              <ActionForm intent="deletion" label={t('admin:action.startDeletion')} danger />
            )}
            {isAdmin && (
              <>
                <ActionForm intent="credits" label={t('admin:action.credits')}>
                  <label className="form-label small" htmlFor="credits-amount">
                    {t('admin:action.amount')}
                  </label>
                  <input
                    id="credits-amount"
                    name="amount"
                    type="number"
                    step={1}
                    required
                    className="form-control form-control-sm mb-2"
                  />
                </ActionForm>
                {detail.orders.some((order) => order.status === 'completed') && (
                  <ActionForm intent="refund" label={t('admin:action.refund')} danger>
                    <label className="form-label small" htmlFor="refund-order">
                      {t('admin:action.order')}
                    </label>
                    <select id="refund-order" name="order" className="form-select form-select-sm mb-2">
                      {detail.orders
                        .filter((order) => order.status === 'completed')
                        .map((order) => (
                          <option key={order.id} value={order.id}>
                            #{order.id} · {order.credits}
                          </option>
                        ))}
                    </select>
                  </ActionForm>
                )}
                <a
                  className="btn btn-sm btn-outline-secondary"
                  href={`/api/admin/member-export.php?id=${member.profile.id}`}
                  download={`member-${member.profile.id}.json`}
                >
                  {t('admin:action.export')}
                </a>
              </>
            )}
          </Section>
        </div>
      </div>
    </div>
  );
}
