import { Form, Link, useNavigation } from 'react-router';
import { FormAlert, FormField } from '#app/components/forms/form-field.tsx';
import { formError, formText } from '#app/lib/actions.server.ts';
import { useRootData } from '#app/lib/root-data.ts';
import { staffApi } from '#app/lib/staff-api.server.ts';
import { useTranslation } from '#app/lib/use-translation.ts';
import { defaultMaxClaims, maxClaimsLimit, type Staff, staffRoleOptions } from '#contract/admin.ts';
import { locales } from '#contract/locales.ts';
import type { Route } from './+types/staff';
import { languageName } from './admin-socket.ts';
import { TableScroll } from './table-scroll.tsx';

export async function loader({ context }: Route.LoaderArgs) {
  const [result, sites] = await Promise.all([
    context.api<{ staff: Staff[] }>('/api/admin/staff.php'),
    staffApi(context.api)('GET /api/admin/sites.php'),
  ]);
  if (!result.ok) throw new Response(null, { status: result.status });
  return {
    staff: result.data.staff,
    sites: sites.ok ? sites.data.sites.map((site) => ({ id: site.id, name: site.name })) : [],
  };
}

export async function action({ context, request }: Route.ActionArgs) {
  const form = await request.formData();
  if (formText(form, 'end_sessions') === '1') {
    const ended = await staffApi(context.api)('DELETE /api/admin/staff-sessions.php', {
      body: { staff: Number(formText(form, 'id')) },
    });
    return ended.ok ? { ended: ended.data.ended } : formError(ended);
  }
  if (formText(form, 'intent') === 'update') {
    const maxClaims = formText(form, 'max_claims').trim();
    const updated = await staffApi(context.api)('PUT /api/admin/staff.php', {
      body: {
        id: Number(formText(form, 'id')),
        role: formText(form, 'role'),
        sites: form.getAll('sites').map(Number),
        languages: form.getAll('languages').filter((value) => typeof value === 'string'),
        max_claims: maxClaims === '' ? null : Number(maxClaims),
        active: form.get('active') === 'on',
        outbound: form.get('outbound') === 'on',
      },
    });
    return updated.ok ? { updated: updated.data.staff } : formError(updated);
  }

  const result = await context.api<{ staff: Staff }>('/api/admin/staff.php', {
    method: 'POST',
    body: {
      email: formText(form, 'email'),
      name: formText(form, 'name'),
      role: formText(form, 'role'),
      password: formText(form, 'password'),
      language: formText(form, 'language'),
    },
  });
  return result.ok ? { created: result.data.staff } : formError(result);
}

/** Admins add operators, moderators and admins; each signs in with the password given here, then enrols. */
export default function StaffPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const locale = useRootData().locale;
  const navigation = useNavigation();
  const errors = actionData && 'errors' in actionData ? actionData.errors : undefined;
  return (
    <div className="row g-3">
      <div className="col-12 col-xl-8">
        <h1 className="h4">{t('admin:staff.heading')}</h1>
        {actionData && 'ended' in actionData && (
          <div className="alert alert-success" role="status">
            {t('admin:staff.sessionsEnded', { count: actionData.ended })}
          </div>
        )}
        {actionData && 'updated' in actionData && actionData.updated && (
          <div className="alert alert-success" role="status">
            {t('admin:staff.updated', { name: actionData.updated.name })}
          </div>
        )}
        <TableScroll label={t('admin:staff.heading')}>
          <table className="table table-sm">
            <thead>
              <tr>
                <th>{t('admin:staff.name')}</th>
                <th>{t('admin:staff.email')}</th>
                <th>{t('admin:staff.role')}</th>
                <th>{t('admin:staff.twoFactor')}</th>
                <th>{t('admin:staff.assignment')}</th>
              </tr>
            </thead>
            <tbody>
              {loaderData.staff.map((member) => (
                <tr key={member.id} className={member.active ? undefined : 'text-body-secondary'}>
                  <td>{member.name}</td>
                  <td>{member.email}</td>
                  <td>{t(`admin:role.${member.role}`)}</td>
                  <td>{member.totp_enabled ? '✓' : '–'}</td>
                  <td>
                    <details>
                      <summary className="small">
                        {t('admin:staff.assignmentSummary', {
                          sites:
                            member.sites.length === 0
                              ? t('admin:staff.allSites')
                              : member.sites
                                  .map((id) => loaderData.sites.find((site) => site.id === id)?.name ?? id)
                                  .join(', '),
                          languages:
                            member.languages.length === 0
                              ? t('admin:staff.allLanguages')
                              : member.languages.map((code) => languageName(code, locale)).join(', '),
                        })}
                      </summary>
                      <AssignmentForm member={member} sites={loaderData.sites} />
                    </details>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      </div>
      <div className="col-12 col-xl-4">
        <h2 className="h5">{t('admin:staff.add')}</h2>
        {actionData && 'created' in actionData && actionData.created && (
          <div className="alert alert-success" role="status">
            {t('admin:staff.created', { name: actionData.created.name })}
          </div>
        )}
        <FormAlert errors={errors} />
        <Form method="post" noValidate>
          <FormField name="name" required label={t('admin:staff.name')} errors={errors} />
          <FormField name="email" type="email" required label={t('admin:staff.email')} errors={errors} />
          <div className="mb-3">
            <label htmlFor="staff-role" className="form-label">
              {t('admin:staff.role')}
            </label>
            <select id="staff-role" name="role" className="form-select" defaultValue="operator">
              {staffRoleOptions.map((role) => (
                <option key={role} value={role}>
                  {t(`admin:role.${role}`)}
                </option>
              ))}
            </select>
          </div>
          <div className="mb-3">
            <label htmlFor="staff-language" className="form-label">
              {t('admin:staff.language')}
            </label>
            <select id="staff-language" name="language" className="form-select" defaultValue={locale}>
              {locales.map((code) => (
                <option key={code} value={code}>
                  {languageName(code, locale)}
                </option>
              ))}
            </select>
          </div>
          <FormField
            name="password"
            type="password"
            autoComplete="new-password"
            required
            label={t('admin:staff.password')}
            errors={errors}
          />
          <button type="submit" className="btn btn-primary" disabled={navigation.state === 'submitting'}>
            {t('admin:staff.submit')}
          </button>
        </Form>
      </div>
    </div>
  );
}

/** Role, the sites and member languages a staff member answers (none ticked: all), claim limit, active. */
function AssignmentForm({ member, sites }: { member: Staff; sites: { id: number; name: string }[] }) {
  const { t } = useTranslation();
  const locale = useRootData().locale;
  const navigation = useNavigation();
  const id = (name: string) => `staff-${member.id}-${name}`;
  return (
    <Form
      method="post"
      className="mt-2 small"
      aria-label={t('admin:staff.assignmentOf', { name: member.name })}
    >
      <input type="hidden" name="intent" value="update" />
      <input type="hidden" name="id" value={member.id} />
      <div className="mb-2">
        <label htmlFor={id('role')} className="form-label mb-0">
          {t('admin:staff.role')}
        </label>
        <select id={id('role')} name="role" className="form-select form-select-sm" defaultValue={member.role}>
          {staffRoleOptions.map((role) => (
            <option key={role} value={role}>
              {t(`admin:role.${role}`)}
            </option>
          ))}
        </select>
      </div>
      <fieldset className="mb-2">
        <legend className="fs-6 mb-0">{t('admin:staff.sites')}</legend>
        <p className="text-body-secondary mb-1">{t('admin:staff.noneMeansAll')}</p>
        {sites.map((site) => (
          <div className="form-check form-check-inline" key={site.id}>
            <input
              className="form-check-input"
              type="checkbox"
              name="sites"
              value={site.id}
              id={id(`site-${site.id}`)}
              defaultChecked={member.sites.includes(site.id)}
            />
            <label className="form-check-label" htmlFor={id(`site-${site.id}`)}>
              {site.name}
            </label>
          </div>
        ))}
      </fieldset>
      <fieldset className="mb-2">
        <legend className="fs-6 mb-0">{t('admin:staff.languages')}</legend>
        {locales.map((code) => (
          <div className="form-check form-check-inline" key={code}>
            <input
              className="form-check-input"
              type="checkbox"
              name="languages"
              value={code}
              id={id(`language-${code}`)}
              defaultChecked={member.languages.includes(code)}
            />
            <label className="form-check-label" htmlFor={id(`language-${code}`)}>
              {languageName(code, locale)}
            </label>
          </div>
        ))}
      </fieldset>
      <div className="mb-2">
        <label htmlFor={id('max-claims')} className="form-label mb-0">
          {t('admin:staff.maxClaims')}
        </label>
        <input
          id={id('max-claims')}
          name="max_claims"
          type="number"
          min={1}
          max={maxClaimsLimit}
          className="form-control form-control-sm"
          style={{ maxWidth: '8rem' }}
          defaultValue={member.max_claims ?? ''}
          placeholder={String(defaultMaxClaims)}
          aria-describedby={id('max-claims-hint')}
        />
        <div id={id('max-claims-hint')} className="form-text">
          {t('admin:staff.maxClaimsHint', { value: defaultMaxClaims })}
        </div>
      </div>
      <div className="form-check mb-2">
        <input
          className="form-check-input"
          type="checkbox"
          name="active"
          id={id('active')}
          defaultChecked={member.active}
        />
        <label className="form-check-label" htmlFor={id('active')}>
          {t('admin:staff.active')}
        </label>
      </div>
      <div className="form-check mb-2">
        <input
          className="form-check-input"
          type="checkbox"
          name="outbound"
          id={id('outbound')}
          defaultChecked={member.outbound}
          aria-describedby={id('outbound-hint')}
        />
        <label className="form-check-label" htmlFor={id('outbound')}>
          {t('admin:staff.outbound')}
        </label>
        <div id={id('outbound-hint')} className="form-text">
          {t('admin:staff.outboundHint')}
        </div>
      </div>
      <div className="d-flex flex-wrap gap-2">
        <button type="submit" className="btn btn-sm btn-primary" disabled={navigation.state === 'submitting'}>
          {t('admin:staff.save')}
        </button>
        <button
          type="submit"
          name="end_sessions"
          value="1"
          className="btn btn-sm btn-outline-danger"
          disabled={navigation.state === 'submitting'}
        >
          {t('admin:staff.endSessions')}
        </button>
        <Link to={`/admin/staff/${member.id}/sessions`} className="btn btn-sm btn-outline-secondary">
          {t('admin:staff.sessionsLink')}
        </Link>
      </div>
    </Form>
  );
}
