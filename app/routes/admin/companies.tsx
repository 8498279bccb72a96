import { Form, Link, useNavigation } from 'react-router';
import { useTranslation } from '#app/lib/use-translation.ts';
import type { AdminCompany } from '#contract/admin-sites.ts';
import { formError } from '../../lib/actions.server.ts';
import type { Route } from './+types/companies';
import { AdminInput, defined, list, text, whole } from './backoffice-form.tsx';

export async function loader({ context, request }: Route.LoaderArgs) {
  const result = await context.api<{ companies: AdminCompany[] }>('/api/admin/companies.php');
  if (!result.ok) throw new Response(null, { status: result.status });
  const edit = Number(new URL(request.url).searchParams.get('edit')) || null;
  return {
    companies: result.data.companies,
    edit: result.data.companies.find((company) => company.id === edit) ?? null,
  };
}

export async function action({ context, request }: Route.ActionArgs) {
  const form = await request.formData();
  const id = whole(form, 'id');
  const body = defined({
    name: text(form, 'name'),
    address: text(form, 'address'),
    kvk: text(form, 'kvk'),
    city: text(form, 'city'),
    country: text(form, 'country'),
    tradenames: text(form, 'tradenames')
      ?.split('\n')
      .map((name) => name.trim())
      .filter(Boolean),
    vat_numbers: list(form, 'vat_numbers')?.map((number) => number.toUpperCase()),
    support_phone: text(form, 'support_phone'),
    delete_discount: whole(form, 'delete_discount'),
  });
  const result = await context.api<{ company: AdminCompany }>('/api/admin/companies.php', {
    method: id === undefined ? 'POST' : 'PUT',
    body: id === undefined ? body : { ...body, id },
  });
  return result.ok ? { savedCompany: result.data.company } : formError(result);
}

/** The companies behind the sites (admins): what the footer and the legal pages show. */
export default function Companies({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const { companies, edit } = loaderData;
  const errors = actionData && 'errors' in actionData ? actionData.errors : undefined;
  const saved = actionData && 'savedCompany' in actionData ? actionData.savedCompany : null;
  return (
    <div className="row g-3">
      <div className="col-12 col-xl-7">
        <nav className="mb-2">
          <Link to="/admin/sites">{t('admin:sites.back')}</Link>
        </nav>
        <h1 className="h4">{t('admin:companies.heading')}</h1>
        <div className="table-responsive">
          <table className="table table-sm align-middle">
            <thead>
              <tr>
                <th>#</th>
                <th>{t('admin:company.name')}</th>
                <th>{t('admin:company.city')}</th>
                <th>{t('admin:company.kvk')}</th>
                <th>{t('admin:companies.sites')}</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {companies.map((company) => (
                <tr key={company.id}>
                  <td>{company.id}</td>
                  <td>{company.name}</td>
                  <td>{company.city}</td>
                  <td>{company.kvk}</td>
                  <td>{company.sites.map((site) => site.name).join(', ')}</td>
                  <td>
                    <Link
                      to={`/admin/companies?edit=${company.id}`}
                      className="btn btn-outline-primary btn-sm"
                    >
                      {t('admin:sites.edit')}
                    </Link>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </div>
      <div className="col-12 col-xl-5">
        <h2 className="h5">
          {edit ? t('admin:companies.editHeading', { name: edit.name }) : t('admin:companies.add')}
        </h2>
        {saved && !errors && (
          <div className="alert alert-success" role="status">
            {t('admin:companies.saved', { name: saved.name })}
          </div>
        )}
        {errors && (
          <div className="alert alert-danger" role="alert">
            {errors.body.fields ? t('admin:editor.fixErrors') : errors.body.message}
          </div>
        )}
        <Form method="post" noValidate key={edit?.id ?? 'new'}>
          {edit && <input type="hidden" name="id" value={edit.id} />}
          <AdminInput
            name="name"
            label={t('admin:company.name')}
            errors={errors}
            defaultValue={edit?.name}
            required
          />
          <AdminInput
            name="address"
            label={t('admin:company.address')}
            errors={errors}
            defaultValue={edit?.address}
            required
          />
          <AdminInput
            name="city"
            label={t('admin:company.city')}
            errors={errors}
            defaultValue={edit?.city}
            required
          />
          <AdminInput
            name="country"
            label={t('admin:company.country')}
            errors={errors}
            defaultValue={edit?.country}
            required
          />
          <AdminInput
            name="kvk"
            label={t('admin:company.kvk')}
            errors={errors}
            defaultValue={edit?.kvk}
            required
          />
          <AdminInput
            name="vat_numbers"
            label={t('admin:company.vatNumbers')}
            hint={t('admin:company.vatNumbersHint')}
            errors={errors}
            defaultValue={edit?.vat_numbers.join(', ')}
          />
          <div className="mb-3">
            <label htmlFor="company-tradenames" className="form-label">
              {t('admin:company.tradenames')}
            </label>
            <textarea
              id="company-tradenames"
              name="tradenames"
              rows={2}
              className="form-control"
              defaultValue={edit?.tradenames.join('\n')}
              aria-describedby="company-tradenames-hint"
            />
            <div id="company-tradenames-hint" className="form-text">
              {t('admin:company.tradenamesHint')}
            </div>
          </div>
          <AdminInput
            name="support_phone"
            type="tel"
            label={t('admin:company.supportPhone')}
            errors={errors}
            defaultValue={edit?.support_phone}
          />
          <AdminInput
            name="delete_discount"
            type="number"
            inputMode="numeric"
            label={t('admin:company.deleteDiscount')}
            hint={t('admin:company.deleteDiscountHint')}
            errors={errors}
            defaultValue={edit?.delete_discount ?? 0}
          />
          <button type="submit" className="btn btn-primary" disabled={navigation.state === 'submitting'}>
            {edit ? t('admin:editor.save') : t('admin:companies.add')}
          </button>
        </Form>
      </div>
    </div>
  );
}
