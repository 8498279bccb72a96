import { Form, useNavigation } from 'react-router';
import { formError } from '#app/lib/actions.server.ts';
import { staffApi } from '#app/lib/staff-api.server.ts';
import { useTranslation } from '#app/lib/use-translation.ts';
import type { Route } from './+types/winback';
import { AdminCheckbox, AdminInput, text } from './backoffice-form.tsx';
import { actionErrors } from './crud-editor.tsx';

export async function loader({ context, request }: Route.LoaderArgs) {
  const api = staffApi(context.api);
  const sites = await api('GET /api/admin/sites.php');
  if (!sites.ok) throw new Response(null, { status: sites.status });
  const list = sites.data.sites.map((site) => ({ id: site.id, name: site.name }));
  const wanted = Number(new URL(request.url).searchParams.get('site'));
  const site = list.find((entry) => entry.id === wanted) ?? list[0];
  if (!site) return { sites: list, site: null, winback: null };
  const answer = await api('GET /api/admin/winback.php', { query: { site: site.id } });
  if (!answer.ok) throw new Response(null, { status: answer.status });
  return { sites: list, site: site.id, winback: answer.data };
}

/** A number field as the API takes it; what is not a whole number goes as NaN (null), which it refuses by name. */
const numberOf = (form: FormData, name: string) => Number(text(form, name)?.trim() || Number.NaN);

export async function action({ context, request }: Route.ActionArgs) {
  const form = await request.formData();
  const result = await staffApi(context.api)('PUT /api/admin/winback.php', {
    body: {
      site: numberOf(form, 'site'),
      active: form.has('active'),
      inactive_days: numberOf(form, 'inactive_days'),
      value_percentage: numberOf(form, 'value_percentage'),
      validity_days: numberOf(form, 'validity_days'),
      repeat_after_days: numberOf(form, 'repeat_after_days'),
    },
  });
  return result.ok ? { saved: true as const } : formError(result);
}

/** Win-back offers per site (admins): the rule, and how many offers went out and were used. */
export default function Winback({ loaderData, actionData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation();
  const navigation = useNavigation();
  const { sites, site, winback } = loaderData;
  const errors = actionErrors(actionData);
  const number = (value: number) => new Intl.NumberFormat(i18n.language).format(value);
  const rate = (part: number, whole: number) =>
    whole === 0 ? '–' : new Intl.NumberFormat(i18n.language, { style: 'percent' }).format(part / whole);
  return (
    <div className="winback-page" style={{ maxWidth: 960 }}>
      <h1 className="h4">{t('admin:winback.heading')}</h1>
      <p className="text-body-secondary">{t('admin:winback.lead')}</p>
      <Form method="get" className="row g-2 align-items-end mb-3" aria-label={t('admin:winback.pickSite')}>
        <div className="col-8 col-md-4">
          <label htmlFor="winback-site" className="form-label">
            {t('admin:winback.site')}
          </label>
          <select id="winback-site" name="site" className="form-select" defaultValue={site ?? ''}>
            {sites.map((entry) => (
              <option key={entry.id} value={entry.id}>
                {entry.name}
              </option>
            ))}
          </select>
        </div>
        <div className="col-4 col-md-2">
          <button type="submit" className="btn btn-outline-primary w-100">
            {t('admin:winback.show')}
          </button>
        </div>
      </Form>
      {!winback ? (
        <p>{t('admin:winback.noSites')}</p>
      ) : (
        <div className="row g-3">
          <div className="col-12 col-lg-7">
            <section className="card" aria-labelledby="winback-rule">
              <div className="card-body">
                <h2 className="h5" id="winback-rule">
                  {t('admin:winback.rule')}
                </h2>
                {actionData && 'saved' in actionData && (
                  <div className="alert alert-success py-2" role="status">
                    {t('admin:winback.saved')}
                  </div>
                )}
                {errors && (
                  <div className="alert alert-danger py-2" role="alert">
                    {t('admin:winback.notSaved')}
                  </div>
                )}
                <Form
                  method="post"
                  key={`${site}-${JSON.stringify(winback.rule)}`}
                  data-testid="winback-form"
                >
                  <input type="hidden" name="site" value={winback.rule.site} />
                  <div className="mb-3">
                    <AdminCheckbox
                      name="active"
                      label={t('admin:winback.active')}
                      defaultChecked={winback.rule.active}
                    />
                  </div>
                  <div className="row">
                    <div className="col-12 col-sm-6">
                      <AdminInput
                        name="inactive_days"
                        label={t('admin:winback.inactiveDays')}
                        hint={t('admin:winback.inactiveDaysHint')}
                        type="number"
                        inputMode="numeric"
                        required
                        errors={errors}
                        defaultValue={winback.rule.inactive_days}
                      />
                    </div>
                    <div className="col-12 col-sm-6">
                      <AdminInput
                        name="value_percentage"
                        label={t('admin:winback.percentage')}
                        hint={t('admin:winback.percentageHint')}
                        type="number"
                        inputMode="numeric"
                        required
                        errors={errors}
                        defaultValue={winback.rule.value_percentage}
                      />
                    </div>
                    <div className="col-12 col-sm-6">
                      <AdminInput
                        name="validity_days"
                        label={t('admin:winback.validityDays')}
                        hint={t('admin:winback.validityDaysHint')}
                        type="number"
                        inputMode="numeric"
                        required
                        errors={errors}
                        defaultValue={winback.rule.validity_days}
                      />
                    </div>
                    <div className="col-12 col-sm-6">
                      <AdminInput
                        name="repeat_after_days"
                        label={t('admin:winback.repeatAfterDays')}
                        hint={t('admin:winback.repeatAfterDaysHint')}
                        type="number"
                        inputMode="numeric"
                        required
                        errors={errors}
                        defaultValue={winback.rule.repeat_after_days}
                      />
                    </div>
                  </div>
                  <button
                    type="submit"
                    className="btn btn-primary"
                    disabled={navigation.state === 'submitting'}
                  >
                    {t('admin:winback.save')}
                  </button>
                </Form>
              </div>
            </section>
          </div>
          <div className="col-12 col-lg-5">
            <section className="card" aria-labelledby="winback-results" data-testid="winback-results">
              <div className="card-body">
                <h2 className="h5" id="winback-results">
                  {t('admin:winback.results')}
                </h2>
                <dl className="row mb-0">
                  <dt className="col-7 fw-normal text-body-secondary">{t('admin:winback.sent')}</dt>
                  <dd className="col-5 fs-5 fw-semibold text-end">{number(winback.results.sent)}</dd>
                  <dt className="col-7 fw-normal text-body-secondary">{t('admin:winback.redeemed')}</dt>
                  <dd className="col-5 fs-5 fw-semibold text-end">{number(winback.results.redeemed)}</dd>
                  <dt className="col-7 fw-normal text-body-secondary">{t('admin:winback.rate')}</dt>
                  <dd className="col-5 fs-5 fw-semibold text-end">
                    {rate(winback.results.redeemed, winback.results.sent)}
                  </dd>
                </dl>
                <p className="small text-body-secondary mt-3 mb-0">{t('admin:winback.resultsHint')}</p>
              </div>
            </section>
          </div>
        </div>
      )}
    </div>
  );
}
