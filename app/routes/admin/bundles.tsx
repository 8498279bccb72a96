import { redirect } from 'react-router';
import { formText } from '#app/lib/actions.server.ts';
import { formatMoney } from '#app/lib/format.ts';
import { useRootData } from '#app/lib/root-data.ts';
import { staffApi } from '#app/lib/staff-api.server.ts';
import { useTranslation } from '#app/lib/use-translation.ts';
import { bundleBadgeOptions } from '#contract/payments.ts';
import type { Route } from './+types/bundles';
import { AdminCheckbox, AdminField, AdminInput, defined, text, whole } from './backoffice-form.tsx';
import { BundlePrices } from './bundle-prices.tsx';
import { loadAdminList } from './crud.server.ts';
import { actionErrors } from './crud-editor.tsx';
import { AdminCrudPage } from './crud-page.tsx';
import { cents, intentError } from './money-form.ts';
import { bySite, offerSites, siteOfForm } from './offer-site.server.ts';
import { OfferSiteCell, OfferSiteFilterForm, OfferSiteSelect } from './offer-site.tsx';

export async function loader({ context, request }: Route.LoaderArgs) {
  const api = staffApi(context.api);
  const [list, { sites, siteFilter }] = await Promise.all([
    loadAdminList(request, api('GET /api/admin/bundles.php'), (data) => data.bundles),
    offerSites(api, request),
  ]);
  return { ...list, items: bySite(list.items, siteFilter), sites, siteFilter };
}

export async function action({ context, request }: Route.ActionArgs) {
  const api = staffApi(context.api);
  const form = await request.formData();
  const intent = formText(form, 'intent');
  const id = whole(form, 'id');
  if (intent === 'price' || intent === 'removePrice') {
    const country = text(form, 'country')?.trim().toUpperCase();
    const result =
      intent === 'price'
        ? await api('PUT /api/admin/bundle-prices.php', {
            body: defined({
              bundle: id,
              country,
              amount: cents(text(form, 'amount')),
              currency: text(form, 'currency')?.trim().toUpperCase(),
            }),
          })
        : await api('DELETE /api/admin/bundle-prices.php', { body: { bundle: id, country } });
    return result.ok ? { saved: 'price' as const, intent } : intentError(result, intent);
  }
  const badge = text(form, 'badge');
  const body = defined({
    site: siteOfForm(form),
    credits: whole(form, 'credits'),
    position: whole(form, 'position'),
    badge: badge === undefined ? undefined : badge || null,
    active: form.has('active'),
  });
  const result =
    id === undefined
      ? await api('POST /api/admin/bundles.php', { body })
      : await api('PUT /api/admin/bundles.php', { body: { ...body, id } });
  if (!result.ok) return intentError(result, 'bundle');
  // A new bundle opens in the editor, where its prices per country are set.
  if (id === undefined) throw redirect(`/admin/bundles?edit=${result.data.bundle.id}&saved=1`);
  return { saved: 'bundle' as const, intent: 'bundle' };
}

/** Credit bundles (admins): credits, order, badge, on sale or not, and a price per country. */
export default function Bundles({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { locale } = useRootData();
  const { items: bundles, edit, sites, siteFilter } = loaderData;
  const saved = actionData && 'saved' in actionData ? actionData.saved : loaderData.created ? 'bundle' : null;
  const bundleErrors = actionErrors(actionData, 'bundle');
  const priceErrors = actionErrors(actionData, 'price') ?? actionErrors(actionData, 'removePrice');
  return (
    <AdminCrudPage
      path="/admin/bundles"
      heading={t('admin:bundles.heading')}
      lead={t('admin:bundles.lead')}
      beforeList={<OfferSiteFilterForm path="/admin/bundles" sites={sites} filter={siteFilter} />}
      items={bundles}
      rowClassName={(bundle) => (bundle.active ? undefined : 'text-body-secondary')}
      columns={[
        { header: '#', cell: (bundle) => bundle.id },
        { header: t('admin:offerSite.label'), cell: (bundle) => <OfferSiteCell site={bundle.site} /> },
        {
          header: t('admin:bundles.credits'),
          cell: (bundle) => (
            <>
              {bundle.credits}
              {!bundle.active && (
                <span className="badge text-bg-secondary ms-2">{t('admin:bundles.inactive')}</span>
              )}
            </>
          ),
        },
        {
          header: t('admin:bundles.prices'),
          className: 'small',
          cell: (bundle) =>
            bundle.prices.length === 0
              ? t('admin:bundles.noPrices')
              : bundle.prices
                  .map((price) => `${price.country} ${formatMoney(price.amount, price.currency, locale)}`)
                  .join(' · '),
        },
        {
          header: t('admin:bundles.badge'),
          cell: (bundle) => (bundle.badge ? t(`credits:badge.${bundle.badge}`) : '–'),
        },
        { header: t('admin:bundles.orders'), cell: (bundle) => bundle.orders },
      ]}
      editor={{
        edit,
        addLabel: t('admin:bundles.add'),
        editHeading: edit ? t('admin:bundles.editHeading', { id: edit.id }) : '',
        saved: saved && !priceErrors ? t('admin:money.saved') : null,
        errors: bundleErrors,
        intent: 'bundle',
        formClassName: 'mb-4',
        after: edit && <BundlePrices bundle={edit} errors={priceErrors} />,
      }}
    >
      <OfferSiteSelect
        sites={sites}
        value={edit?.site}
        errors={bundleErrors}
        hint={t('admin:offerSite.hint')}
      />
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
    </AdminCrudPage>
  );
}
