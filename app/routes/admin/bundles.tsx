import { Form, Link, redirect, useNavigation } from 'react-router';
import { useTranslation } from '#app/lib/use-translation.ts';
import type { AdminBundle } from '#contract/admin-money.ts';
import { bundleBadgeOptions } from '#contract/payments.ts';
import { formText } from '../../lib/actions.server.ts';
import { formatMoney } from '../../lib/format.ts';
import { useRootData } from '../../lib/root-data.ts';
import type { Route } from './+types/bundles';
import { AdminCheckbox, AdminField, AdminInput, defined, text, whole } from './backoffice-form.tsx';
import { cents, centsText, intentError } from './money-form.ts';

export async function loader({ context, request }: Route.LoaderArgs) {
  const result = await context.api<{ bundles: AdminBundle[] }>('/api/admin/bundles.php');
  if (!result.ok) throw new Response(null, { status: result.status });
  const url = new URL(request.url);
  const edit = Number(url.searchParams.get('edit')) || null;
  return {
    bundles: result.data.bundles,
    edit: result.data.bundles.find((bundle) => bundle.id === edit) ?? null,
    created: url.searchParams.get('saved') === '1',
  };
}

export async function action({ context, request }: Route.ActionArgs) {
  const form = await request.formData();
  const intent = formText(form, 'intent');
  const id = whole(form, 'id');
  if (intent === 'price' || intent === 'removePrice') {
    const country = text(form, 'country')?.trim().toUpperCase();
    const result = await context.api<{ bundle: AdminBundle }>('/api/admin/bundle-prices.php', {
      method: intent === 'price' ? 'PUT' : 'DELETE',
      body:
        intent === 'price'
          ? defined({
              bundle: id,
              country,
              amount: cents(text(form, 'amount')),
              currency: text(form, 'currency')?.trim().toUpperCase(),
            })
          : { bundle: id, country },
    });
    return result.ok ? { saved: 'price' as const, intent } : intentError(result, intent);
  }
  const badge = text(form, 'badge');
  const body = defined({
    credits: whole(form, 'credits'),
    position: whole(form, 'position'),
    badge: badge === undefined ? undefined : badge || null,
    active: form.has('active'),
  });
  const result = await context.api<{ bundle: AdminBundle }>('/api/admin/bundles.php', {
    method: id === undefined ? 'POST' : 'PUT',
    body: id === undefined ? body : { ...body, id },
  });
  if (!result.ok) return intentError(result, 'bundle');
  // A new bundle opens in the editor, where its prices per country are set.
  if (id === undefined) throw redirect(`/admin/bundles?edit=${result.data.bundle.id}&saved=1`);
  return { saved: 'bundle' as const, intent: 'bundle' };
}

/** Credit bundles (admins): credits, order, badge, on sale or not, and a price per country. */
export default function Bundles({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { locale } = useRootData();
  const navigation = useNavigation();
  const { bundles, edit } = loaderData;
  const errorsOf = (intent: string) =>
    actionData && 'errors' in actionData && actionData.intent === intent ? actionData.errors : undefined;
  const saved = actionData && 'saved' in actionData ? actionData.saved : loaderData.created ? 'bundle' : null;
  const bundleErrors = errorsOf('bundle');
  const priceErrors = errorsOf('price') ?? errorsOf('removePrice');
  return (
    <div className="row g-3">
      <div className="col-12 col-xl-7">
        <h1 className="h4">{t('admin:bundles.heading')}</h1>
        <p className="text-body-secondary small">{t('admin:bundles.lead')}</p>
        <div className="table-responsive">
          <table className="table table-sm align-middle">
            <thead>
              <tr>
                <th>#</th>
                <th>{t('admin:bundles.credits')}</th>
                <th>{t('admin:bundles.prices')}</th>
                <th>{t('admin:bundles.badge')}</th>
                <th>{t('admin:bundles.orders')}</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {bundles.map((bundle) => (
                <tr key={bundle.id} className={bundle.active ? undefined : 'text-body-secondary'}>
                  <td>{bundle.id}</td>
                  <td>
                    {bundle.credits}
                    {!bundle.active && (
                      <span className="badge text-bg-secondary ms-2">{t('admin:bundles.inactive')}</span>
                    )}
                  </td>
                  <td className="small">
                    {bundle.prices.length === 0
                      ? t('admin:bundles.noPrices')
                      : bundle.prices
                          .map(
                            (price) =>
                              `${price.country} ${formatMoney(price.amount, price.currency, locale)}`,
                          )
                          .join(' · ')}
                  </td>
                  <td>{bundle.badge ? t(`credits:badge.${bundle.badge}`) : '–'}</td>
                  <td>{bundle.orders}</td>
                  <td>
                    <Link to={`/admin/bundles?edit=${bundle.id}`} className="btn btn-outline-primary btn-sm">
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
          {edit ? t('admin:bundles.editHeading', { id: edit.id }) : t('admin:bundles.add')}
        </h2>
        {saved && !bundleErrors && !priceErrors && (
          <div className="alert alert-success" role="status">
            {t('admin:money.saved')}
          </div>
        )}
        {bundleErrors && (
          <div className="alert alert-danger" role="alert">
            {bundleErrors.body.fields ? t('admin:editor.fixErrors') : bundleErrors.body.message}
          </div>
        )}
        <Form method="post" noValidate key={edit?.id ?? 'new'} className="mb-4">
          <input type="hidden" name="intent" value="bundle" />
          {edit && <input type="hidden" name="id" value={edit.id} />}
          <div className="row g-2">
            <div className="col-6">
              <AdminInput
                name="credits"
                type="number"
                inputMode="numeric"
                label={t('admin:bundles.credits')}
                errors={bundleErrors}
                defaultValue={edit?.credits}
                required
              />
            </div>
            <div className="col-6">
              <AdminInput
                name="position"
                type="number"
                inputMode="numeric"
                label={t('admin:money.position')}
                hint={t('admin:money.positionHint')}
                errors={bundleErrors}
                defaultValue={edit?.position ?? 0}
              />
            </div>
          </div>
          <AdminField name="badge" label={t('admin:bundles.badge')} errors={bundleErrors}>
            {({ id, invalid, describedBy }) => (
              <select
                id={id}
                name="badge"
                className={`form-select${invalid ? ' is-invalid' : ''}`}
                defaultValue={edit?.badge ?? ''}
                aria-describedby={describedBy}
              >
                <option value="">{t('admin:bundles.noBadge')}</option>
                {bundleBadgeOptions.map((badge) => (
                  <option key={badge} value={badge}>
                    {t(`credits:badge.${badge}`)}
                  </option>
                ))}
              </select>
            )}
          </AdminField>
          <div className="mb-3">
            <AdminCheckbox
              name="active"
              label={t('admin:bundles.active')}
              defaultChecked={edit?.active ?? true}
            />
          </div>
          <button type="submit" className="btn btn-primary" disabled={navigation.state === 'submitting'}>
            {edit ? t('admin:editor.save') : t('admin:bundles.add')}
          </button>
        </Form>

        {edit && (
          <section aria-labelledby="prices-heading">
            <h3 id="prices-heading" className="h6">
              {t('admin:bundles.pricesHeading')}
            </h3>
            {priceErrors && (
              <div className="alert alert-danger" role="alert">
                {priceErrors.body.fields ? t('admin:editor.fixErrors') : priceErrors.body.message}
              </div>
            )}
            <ul className="list-group mb-3">
              {edit.prices.map((price) => (
                <li
                  key={price.country}
                  className="list-group-item d-flex align-items-center gap-2"
                  data-testid={`price-${price.country}`}
                >
                  <span className="fw-semibold">{price.country}</span>
                  <span className="me-auto">{formatMoney(price.amount, price.currency, locale)}</span>
                  <Form method="post">
                    <input type="hidden" name="intent" value="removePrice" />
                    <input type="hidden" name="id" value={edit.id} />
                    <input type="hidden" name="country" value={price.country} />
                    <button
                      type="submit"
                      className="btn btn-outline-danger btn-sm"
                      aria-label={t('admin:bundles.removePrice', { country: price.country })}
                    >
                      {t('admin:bundles.remove')}
                    </button>
                  </Form>
                </li>
              ))}
            </ul>
            <Form method="post" noValidate className="row g-2 align-items-start">
              <input type="hidden" name="intent" value="price" />
              <input type="hidden" name="id" value={edit.id} />
              <div className="col-4">
                <AdminInput
                  name="country"
                  label={t('admin:money.country')}
                  hint={t('admin:money.countryHint')}
                  errors={priceErrors}
                  required
                />
              </div>
              <div className="col-4">
                <AdminInput
                  name="amount"
                  label={t('admin:money.amount')}
                  hint={t('admin:money.amountHint')}
                  errors={priceErrors}
                  defaultValue={centsText(edit.prices[0]?.amount)}
                  required
                />
              </div>
              <div className="col-4">
                <AdminInput
                  name="currency"
                  label={t('admin:money.currency')}
                  errors={priceErrors}
                  defaultValue={edit.prices[0]?.currency ?? 'EUR'}
                  required
                />
              </div>
              <div className="col-12">
                <button type="submit" className="btn btn-outline-primary">
                  {t('admin:bundles.setPrice')}
                </button>
              </div>
            </Form>
          </section>
        )}
      </div>
    </div>
  );
}
