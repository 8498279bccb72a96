import { Link } from 'react-router';
import { formError } from '#app/lib/actions.server.ts';
import { staffApi } from '#app/lib/staff-api.server.ts';
import { useTranslation } from '#app/lib/use-translation.ts';
import type { Route } from './+types/companies';
import { AdminInput, defined, list, text, whole } from './backoffice-form.tsx';
import { loadAdminList } from './crud.server.ts';
import { actionErrors } from './crud-editor.tsx';
import { AdminCrudPage } from './crud-page.tsx';

export async function loader({ context, request }: Route.LoaderArgs) {
  return loadAdminList(
    request,
    staffApi(context.api)('GET /api/admin/companies.php'),
    (data) => data.companies,
  );
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
  const api = staffApi(context.api);
  const result =
    id === undefined
      ? await api('POST /api/admin/companies.php', { body })
      : await api('PUT /api/admin/companies.php', { body: { ...body, id } });
  return result.ok ? { savedCompany: result.data.company } : formError(result);
}

/** The companies behind the sites (admins): what the footer and the legal pages show. */
export default function Companies({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { items: companies, edit } = loaderData;
  const errors = actionErrors(actionData);
  const saved = actionData && 'savedCompany' in actionData ? actionData.savedCompany : null;
  return (
    <AdminCrudPage
      path="/admin/companies"
      heading={t('admin:companies.heading')}
      above={
        <nav className="mb-2">
          <Link to="/admin/sites">{t('admin:sites.back')}</Link>
        </nav>
      }
      items={companies}
      columns={[
        { header: '#', cell: (company) => company.id },
        { header: t('admin:company.name'), cell: (company) => company.name },
        { header: t('admin:company.city'), cell: (company) => company.city },
        { header: t('admin:company.kvk'), cell: (company) => company.kvk },
        {
          header: t('admin:companies.sites'),
          cell: (company) => company.sites.map((site) => site.name).join(', '),
        },
      ]}
      editor={{
        edit,
        addLabel: t('admin:companies.add'),
        editHeading: edit ? t('admin:companies.editHeading', { name: edit.name }) : '',
        saved: saved ? t('admin:companies.saved', { name: saved.name }) : null,
        errors,
      }}
    >
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
    </AdminCrudPage>
  );
}
