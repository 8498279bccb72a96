import { Form, useNavigation } from 'react-router';
import { FormAlert, FormField } from '#app/components/forms/form-field.tsx';
import { formError, formText } from '#app/lib/actions.server.ts';
import { useRootData } from '#app/lib/root-data.ts';
import { useTranslation } from '#app/lib/use-translation.ts';
import { type Staff, staffRoleOptions } from '#contract/admin.ts';
import { locales } from '#contract/locales.ts';
import type { Route } from './+types/staff';
import { languageName } from './admin-socket.ts';
import { TableScroll } from './table-scroll.tsx';

export async function loader({ context }: Route.LoaderArgs) {
  const result = await context.api<{ staff: Staff[] }>('/api/admin/staff.php');
  if (!result.ok) throw new Response(null, { status: result.status });
  return { staff: result.data.staff };
}

export async function action({ context, request }: Route.ActionArgs) {
  const form = await request.formData();
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
      <div className="col-12 col-lg-7">
        <h1 className="h4">{t('admin:staff.heading')}</h1>
        <TableScroll label={t('admin:staff.heading')}>
          <table className="table table-sm">
            <thead>
              <tr>
                <th>{t('admin:staff.name')}</th>
                <th>{t('admin:staff.email')}</th>
                <th>{t('admin:staff.role')}</th>
                <th>{t('admin:staff.twoFactor')}</th>
              </tr>
            </thead>
            <tbody>
              {loaderData.staff.map((member) => (
                <tr key={member.id}>
                  <td>{member.name}</td>
                  <td>{member.email}</td>
                  <td>{t(`admin:role.${member.role}`)}</td>
                  <td>{member.totp_enabled ? '✓' : '–'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      </div>
      <div className="col-12 col-lg-5">
        <h2 className="h5">{t('admin:staff.add')}</h2>
        {actionData && 'created' in actionData && (
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
