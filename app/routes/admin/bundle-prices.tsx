import { Form } from 'react-router';
import type { FormErrors } from '#app/lib/form-errors.ts';
import { formatMoney } from '#app/lib/format.ts';
import { useRootData } from '#app/lib/root-data.ts';
import { useTranslation } from '#app/lib/use-translation.ts';
import type { AdminBundle } from '#contract/admin-money.ts';
import { AdminInput } from './backoffice-form.tsx';
import { centsText } from './money-form.ts';

/** A bundle's price per country, under its editor: remove one, or set one (new or changed). */
export function BundlePrices({ bundle, errors }: { bundle: AdminBundle; errors: FormErrors | undefined }) {
  const { t } = useTranslation();
  const { locale } = useRootData();
  return (
    <section aria-labelledby="prices-heading">
      <h3 id="prices-heading" className="h6">
        {t('admin:bundles.pricesHeading')}
      </h3>
      {errors && (
        <div className="alert alert-danger" role="alert">
          {errors.body.fields ? t('admin:editor.fixErrors') : errors.body.message}
        </div>
      )}
      <ul className="list-group mb-3">
        {bundle.prices.map((price) => (
          <li
            key={price.country}
            className="list-group-item d-flex align-items-center gap-2"
            data-testid={`price-${price.country}`}
          >
            <span className="fw-semibold">{price.country}</span>
            <span className="me-auto">{formatMoney(price.amount, price.currency, locale)}</span>
            <Form method="post">
              <input type="hidden" name="intent" value="removePrice" />
              <input type="hidden" name="id" value={bundle.id} />
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
        <input type="hidden" name="id" value={bundle.id} />
        <div className="col-4">
          <AdminInput
            name="country"
            label={t('admin:money.country')}
            hint={t('admin:money.countryHint')}
            errors={errors}
            required
          />
        </div>
        <div className="col-4">
          <AdminInput
            name="amount"
            label={t('admin:money.amount')}
            hint={t('admin:money.amountHint')}
            errors={errors}
            defaultValue={centsText(bundle.prices[0]?.amount)}
            required
          />
        </div>
        <div className="col-4">
          <AdminInput
            name="currency"
            label={t('admin:money.currency')}
            errors={errors}
            defaultValue={bundle.prices[0]?.currency ?? 'EUR'}
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
  );
}
