import { Form } from 'react-router';
import { formError, formText } from '#app/lib/actions.server.ts';
import { formatDate, formatMoney } from '#app/lib/format.ts';
import { useRootData } from '#app/lib/root-data.ts';
import { staffApi } from '#app/lib/staff-api.server.ts';
import { useTranslation } from '#app/lib/use-translation.ts';
import type { AdminDiscountCode } from '#contract/admin-money.ts';
import { paymentMethodOptions, timeBonus } from '#contract/payments.ts';
import type { Route } from './+types/discount-codes';
import { AdminField, AdminInput, defined, errorAt, text, whole } from './backoffice-form.tsx';
import { loadAdminList } from './crud.server.ts';
import { actionErrors } from './crud-editor.tsx';
import { AdminCrudPage } from './crud-page.tsx';
import { cents, centsText, isoFromLocal, localFromIso, utcTime } from './money-form.ts';
import { bySite, offerSites, siteOfForm } from './offer-site.server.ts';
import { OfferSiteCell, OfferSiteFilterForm, OfferSiteSelect } from './offer-site.tsx';

export async function loader({ context, request }: Route.LoaderArgs) {
  const api = staffApi(context.api);
  const [list, { sites, siteFilter }] = await Promise.all([
    loadAdminList(request, api('GET /api/admin/discountcodes.php'), (data) => data.discountcodes),
    offerSites(api, request),
  ]);
  return { ...list, items: bySite(list.items, siteFilter), sites, siteFilter };
}

/** An optional code field: undefined when absent, null when empty, else upper case. */
const upperOrNull = (value: string | undefined) =>
  value === undefined ? undefined : value.trim().toUpperCase() || null;

export async function action({ context, request }: Route.ActionArgs) {
  const api = staffApi(context.api);
  const form = await request.formData();
  const id = whole(form, 'id');
  const intent = formText(form, 'intent');
  if (intent === 'status') {
    const result = await api('PUT /api/admin/discountcodes.php', {
      body: { id, status: text(form, 'status') },
    });
    return result.ok ? { savedCode: result.data.discountcode } : formError(result);
  }
  const member = text(form, 'member')?.trim();
  const body = defined({
    site: siteOfForm(form),
    code: text(form, 'code'),
    value_percentage: whole(form, 'value_percentage'),
    country: upperOrNull(text(form, 'country')),
    member: member === undefined ? undefined : member === '' ? null : whole(form, 'member'),
    expires: isoFromLocal(text(form, 'expires')),
    currency: upperOrNull(text(form, 'currency')),
    minimum_order_value: cents(text(form, 'minimum_order_value')) ?? 0,
    status: text(form, 'status'),
    validity: text(form, 'validity'),
    paymentmethods: form.getAll('paymentmethods').filter((value) => typeof value === 'string'),
  });
  const result =
    id === undefined
      ? await api('POST /api/admin/discountcodes.php', { body })
      : await api('PUT /api/admin/discountcodes.php', { body: { ...body, id } });
  return result.ok ? { savedCode: result.data.discountcode } : formError(result);
}

function Scope({ code }: { code: AdminDiscountCode }) {
  const { t } = useTranslation();
  const { locale } = useRootData();
  const parts = [
    code.country,
    code.currency,
    code.member ? `${code.member.name} #${code.member.id}` : null,
    code.minimum_order_value > 0
      ? t('admin:codes.minimum', {
          amount: code.currency
            ? formatMoney(code.minimum_order_value, code.currency, locale)
            : centsText(code.minimum_order_value),
        })
      : null,
    code.paymentmethods.length > 0
      ? code.paymentmethods.map((method) => t(`credits:method.${method}`)).join(', ')
      : null,
  ].filter(Boolean);
  return <span className="small">{parts.length > 0 ? parts.join(' · ') : t('admin:codes.everyone')}</span>;
}

/** Enables a code that is off, disables one that is on. */
function StatusToggle({ code }: { code: AdminDiscountCode }) {
  const { t } = useTranslation();
  return (
    <Form method="post" className="d-inline">
      <input type="hidden" name="intent" value="status" />
      <input type="hidden" name="id" value={code.id} />
      <input type="hidden" name="status" value={code.status === 'active' ? 'inactive' : 'active'} />
      <button type="submit" className="btn btn-outline-secondary btn-sm">
        {code.status === 'active' ? t('admin:codes.disable') : t('admin:codes.enable')}
      </button>
    </Form>
  );
}

/** Discount codes (admins): every field of spec §3, disable and enable, and how often each was used. */
export default function DiscountCodes({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { locale } = useRootData();
  const { items: codes, edit, sites, siteFilter } = loaderData;
  const errors = actionErrors(actionData);
  const saved = actionData && 'savedCode' in actionData ? actionData.savedCode : null;
  return (
    <AdminCrudPage
      path="/admin/discountcodes"
      heading={t('admin:codes.heading')}
      listWidth={8}
      beforeList={<OfferSiteFilterForm path="/admin/discountcodes" sites={sites} filter={siteFilter} />}
      items={codes}
      rowTestId={(code) => `code-${code.code}`}
      empty={t('admin:codes.none')}
      rowActions={(code) => <StatusToggle code={code} />}
      columns={[
        {
          header: t('admin:codes.code'),
          cell: (code) => (
            <>
              <span className="font-monospace">{code.code}</span>
              <span
                className={`badge ms-2 ${code.status === 'active' && !code.expired ? 'text-bg-success' : 'text-bg-secondary'}`}
              >
                {code.expired ? t('admin:codes.expired') : t(`admin:codes.status.${code.status}`)}
              </span>
              <div className="small text-body-secondary">{t(`admin:codes.validity.${code.validity}`)}</div>
            </>
          ),
        },
        { header: t('admin:offerSite.label'), cell: (code) => <OfferSiteCell site={code.site} /> },
        { header: t('admin:codes.percentage'), cell: (code) => `${code.value_percentage}%` },
        { header: t('admin:codes.scope'), cell: (code) => <Scope code={code} /> },
        {
          header: t('admin:codes.expires'),
          className: 'small',
          cell: (code) => (code.expires ? formatDate(code.expires, locale, utcTime) : '–'),
        },
        { header: t('admin:codes.redemptions'), cell: (code) => code.redemptions },
        { header: t('admin:codes.paidOrders'), cell: (code) => code.paid_orders },
      ]}
      editor={{
        edit,
        addLabel: t('admin:codes.add'),
        editHeading: edit ? t('admin:codes.editHeading', { code: edit.code }) : '',
        saved: saved ? t('admin:money.saved') : null,
        errors,
        formKey: edit?.id ?? `new-${saved?.id ?? ''}`,
      }}
    >
      <div className="row g-2">
        <div className="col-7">
          <AdminInput
            name="code"
            label={t('admin:codes.code')}
            errors={errors}
            defaultValue={edit?.code}
            required
          />
        </div>
        <div className="col-5">
          <AdminInput
            name="value_percentage"
            type="number"
            inputMode="numeric"
            label={t('admin:codes.percentage')}
            hint={edit?.code === timeBonus.code ? t('admin:codes.timeBonusHint') : undefined}
            errors={errors}
            defaultValue={edit?.value_percentage}
            required
          />
        </div>
        <div className="col-12">
          <OfferSiteSelect
            sites={sites}
            value={edit?.site}
            errors={errors}
            hint={t('admin:offerSite.codeHint')}
          />
        </div>
        <div className="col-6">
          <AdminInput
            name="country"
            label={t('admin:money.country')}
            hint={t('admin:codes.anyHint')}
            errors={errors}
            defaultValue={edit?.country}
          />
        </div>
        <div className="col-6">
          <AdminInput
            name="currency"
            label={t('admin:money.currency')}
            hint={t('admin:codes.anyHint')}
            errors={errors}
            defaultValue={edit?.currency}
          />
        </div>
        <div className="col-6">
          <AdminInput
            name="member"
            inputMode="numeric"
            label={t('admin:codes.member')}
            hint={t('admin:codes.memberHint')}
            errors={errors}
            defaultValue={edit?.member?.id}
          />
        </div>
        <div className="col-6">
          <AdminInput
            name="minimum_order_value"
            label={t('admin:codes.minimumOrder')}
            hint={t('admin:money.amountHint')}
            errors={errors}
            defaultValue={edit && edit.minimum_order_value > 0 ? centsText(edit.minimum_order_value) : ''}
          />
        </div>
      </div>
      <AdminInput
        name="expires"
        type="datetime-local"
        label={t('admin:codes.expires')}
        hint={t('admin:codes.expiresHint')}
        errors={errors}
        defaultValue={localFromIso(edit?.expires)}
      />
      <div className="row g-2">
        <div className="col-6">
          <AdminField name="status" label={t('admin:codes.statusLabel')} errors={errors}>
            {({ id, invalid, describedBy }) => (
              <select
                id={id}
                name="status"
                className={`form-select${invalid ? ' is-invalid' : ''}`}
                defaultValue={edit?.status ?? 'active'}
                aria-describedby={describedBy}
              >
                <option value="active">{t('admin:codes.status.active')}</option>
                <option value="inactive">{t('admin:codes.status.inactive')}</option>
              </select>
            )}
          </AdminField>
        </div>
        <div className="col-6">
          <AdminField name="validity" label={t('admin:codes.validityLabel')} errors={errors}>
            {({ id, invalid, describedBy }) => (
              <select
                id={id}
                name="validity"
                className={`form-select${invalid ? ' is-invalid' : ''}`}
                defaultValue={edit?.validity ?? 'once_per_user'}
                aria-describedby={describedBy}
              >
                <option value="once_per_user">{t('admin:codes.validity.once_per_user')}</option>
                <option value="unlimited">{t('admin:codes.validity.unlimited')}</option>
              </select>
            )}
          </AdminField>
        </div>
      </div>
      <fieldset className="mb-3">
        <legend className="form-label fs-6">{t('admin:codes.methods')}</legend>
        <div className="row row-cols-2 g-1">
          {paymentMethodOptions.map((method) => (
            <div className="col" key={method}>
              <div className="form-check">
                <input
                  id={`method-${method}`}
                  className="form-check-input"
                  type="checkbox"
                  name="paymentmethods"
                  value={method}
                  defaultChecked={edit?.paymentmethods.includes(method) ?? false}
                />
                <label className="form-check-label" htmlFor={`method-${method}`}>
                  {t(`credits:method.${method}`)}
                </label>
              </div>
            </div>
          ))}
        </div>
        <div className="form-text">{t('admin:codes.methodsHint')}</div>
        {errorAt(errors, 'paymentmethods') && (
          <div className="invalid-feedback d-block">{t('errors:field.invalid')}</div>
        )}
      </fieldset>
    </AdminCrudPage>
  );
}
