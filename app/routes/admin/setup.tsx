import { Form, Link, redirect, useNavigation } from 'react-router';
import { FormAlert } from '#app/components/forms/form-field.tsx';
import { formError } from '#app/lib/actions.server.ts';
import { staffApi } from '#app/lib/staff-api.server.ts';
import { useTranslation } from '#app/lib/use-translation.ts';
import { locales } from '#contract/locales.ts';
import type { Route } from './+types/setup';
import { languageName } from './admin-socket.ts';
import { AdminField, AdminInput, defined, list, text, whole } from './backoffice-form.tsx';

/**
 * The first run (an empty database, SEED_DEMO=0): the company behind the sites, then the first
 * site, which every instance serves at once. Once a site exists the page only confirms it
 * (`?done=<id>`) or sends the admin on to the sites.
 */
export async function loader({ context, request }: Route.LoaderArgs) {
  const api = staffApi(context.api);
  const sites = await api('GET /api/admin/sites.php');
  // Operators and moderators have no say in sites: their work is elsewhere.
  if (!sites.ok) throw redirect('/admin/inbox');
  const done = new URL(request.url).searchParams.get('done');
  if (sites.data.sites.length > 0) {
    const site = sites.data.sites.find((entry) => String(entry.id) === done);
    if (!site) throw redirect('/admin/sites');
    return {
      step: 'done' as const,
      site: { id: site.id, name: site.name, domain: site.domain },
      companies: [],
    };
  }
  const companies = await api('GET /api/admin/companies.php');
  if (!companies.ok) throw redirect('/admin/inbox');
  const list = companies.data.companies.map((company) => ({ id: company.id, name: company.name }));
  return { step: list.length === 0 ? ('company' as const) : ('site' as const), site: null, companies: list };
}

export async function action({ context, request }: Route.ActionArgs) {
  const form = await request.formData();
  const api = staffApi(context.api);
  if (form.get('intent') === 'company') {
    const result = await api('POST /api/admin/companies.php', {
      body: defined({
        name: text(form, 'name'),
        address: text(form, 'address'),
        kvk: text(form, 'kvk'),
        city: text(form, 'city'),
        country: text(form, 'country'),
      }),
    });
    if (!result.ok) return formError(result);
    throw redirect('/admin/setup');
  }
  const result = await api('POST /api/admin/sites.php', {
    body: defined({
      name: text(form, 'name'),
      domain: text(form, 'domain'),
      domain_language: text(form, 'domain_language'),
      countries: list(form, 'countries')?.map((code) => code.toUpperCase()),
      company_id: whole(form, 'company_id'),
      support_email: text(form, 'support_email'),
      is_default: true,
    }),
  });
  if (!result.ok) return formError(result);
  throw redirect(`/admin/setup?done=${result.data.site.id}`);
}

export default function Setup({ loaderData, actionData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation();
  const navigation = useNavigation();
  const busy = navigation.state === 'submitting';
  const errors = actionData && 'errors' in actionData ? actionData.errors : undefined;
  const { step, site, companies } = loaderData;
  const number = step === 'company' ? 1 : 2;
  return (
    <div className="mx-auto" style={{ maxWidth: 560 }}>
      <h1 className="h3 mb-1">{t('admin:setup.heading')}</h1>
      {step === 'done' && site ? (
        <div role="status">
          <p className="lead">{t('admin:setup.done', { name: site.name, domain: site.domain })}</p>
          <p>{t('admin:setup.doneNext')}</p>
          <div className="d-flex flex-wrap gap-2">
            <Link className="btn btn-primary" to={`/admin/sites/${site.id}`}>
              {t('admin:setup.toSite')}
            </Link>
            <Link className="btn btn-outline-secondary" to="/admin/profiles">
              {t('admin:setup.toProfiles')}
            </Link>
          </div>
        </div>
      ) : (
        <>
          <p className="text-body-secondary">{t('admin:setup.step', { step: number, total: 2 })}</p>
          <p>{t(step === 'company' ? 'admin:setup.companyIntro' : 'admin:setup.siteIntro')}</p>
          <FormAlert errors={errors} />
          {step === 'company' ? (
            <Form method="post" noValidate>
              <input type="hidden" name="intent" value="company" />
              <AdminInput name="name" label={t('admin:company.name')} errors={errors} required />
              <AdminInput name="address" label={t('admin:company.address')} errors={errors} required />
              <AdminInput name="city" label={t('admin:company.city')} errors={errors} required />
              <AdminInput name="country" label={t('admin:company.country')} errors={errors} required />
              <AdminInput name="kvk" label={t('admin:company.kvk')} errors={errors} required />
              <div className="d-grid">
                <button type="submit" className="btn btn-primary" disabled={busy}>
                  {t('admin:setup.createCompany')}
                </button>
              </div>
            </Form>
          ) : (
            <Form method="post" noValidate>
              <input type="hidden" name="intent" value="site" />
              <AdminInput name="name" label={t('admin:site.name')} errors={errors} required />
              <AdminInput
                name="domain"
                label={t('admin:site.domain')}
                hint={t('admin:site.domainHint')}
                errors={errors}
                required
              />
              <AdminField name="domain_language" label={t('admin:site.domainLanguage')} errors={errors}>
                {({ id, invalid }) => (
                  <select
                    id={id}
                    name="domain_language"
                    className={`form-select${invalid ? ' is-invalid' : ''}`}
                    defaultValue={locales.find((code) => code === i18n.language) ?? 'en'}
                  >
                    {locales.map((code) => (
                      <option key={code} value={code}>
                        {languageName(code, i18n.language)}
                      </option>
                    ))}
                  </select>
                )}
              </AdminField>
              <AdminInput
                name="countries"
                label={t('admin:site.countries')}
                hint={t('admin:site.countriesHint')}
                errors={errors}
                required
              />
              <AdminInput
                name="support_email"
                type="email"
                label={t('admin:site.supportEmail')}
                errors={errors}
                required
              />
              <AdminField name="company_id" label={t('admin:site.company')} errors={errors}>
                {({ id, invalid }) => (
                  <select
                    id={id}
                    name="company_id"
                    className={`form-select${invalid ? ' is-invalid' : ''}`}
                    defaultValue={companies[0]?.id}
                  >
                    {companies.map((company) => (
                      <option key={company.id} value={company.id}>
                        {company.name}
                      </option>
                    ))}
                  </select>
                )}
              </AdminField>
              <div className="d-grid">
                <button type="submit" className="btn btn-primary" disabled={busy}>
                  {t('admin:setup.createSite')}
                </button>
              </div>
            </Form>
          )}
        </>
      )}
    </div>
  );
}
