import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Form, redirect, useNavigation, useParams } from 'react-router';
import type { ErrorBody } from '#contract/common.ts';
import type { BundlesResponse, DiscountCode } from '#contract/payments.ts';
import { FormAlert } from '../components/forms/form-field.tsx';
import { formError, formText } from '../lib/actions.server.ts';
import { discounted } from '../lib/discounts.ts';
import { formatMoney } from '../lib/format.ts';
import { pageMeta } from '../lib/meta.ts';
import { useRootData } from '../lib/root-data.ts';
import type { Route } from './+types/credits-checkout';

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, 'page.credits');
}

export async function loader({ context, params }: Route.LoaderArgs) {
  const [bundles, welcome] = await Promise.all([
    context.api<BundlesResponse>('/api/bundles.php'),
    context.api<DiscountCode>('/api/discountcode.php?welcome=true'),
  ]);
  const bundle = bundles.data.bundles.find((candidate) => candidate.id === Number(params.id));
  if (!bundle) throw redirect('/credits');
  return { bundle, methods: bundles.data.paymentmethods, welcome: welcome.ok ? welcome.data : null };
}

export async function action({ context, request, params }: Route.ActionArgs) {
  const form = await request.formData();
  const code = formText(form, 'discountcode').trim();
  const result = await context.api<{ checkout_url: string } | ErrorBody>('/api/order.php', {
    method: 'POST',
    body: {
      bundle: Number(params.id),
      paymentmethod: formText(form, 'paymentmethod'),
      ...(code ? { discountcode: code } : {}),
    },
  });
  if (!result.ok) return formError(result);
  throw redirect((result.data as { checkout_url: string }).checkout_url);
}

/** A chosen bundle: payment method (credits-id-paymentmethod), discount code, pay. */
export default function CreditsCheckout({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { locale } = useRootData();
  const params = useParams();
  const navigation = useNavigation();
  const { bundle, methods, welcome } = loaderData;
  const [method, setMethod] = useState(
    params.paymentmethod && methods.includes(params.paymentmethod) ? params.paymentmethod : methods[0],
  );
  const price = welcome ? discounted(bundle.price, welcome.value_percentage) : bundle.price;
  return (
    <div className="container py-4" style={{ maxWidth: 560 }}>
      <h1 className="h3">
        {t('credits:chosenBundle', {
          count: bundle.credits,
          price: formatMoney(price, bundle.currency, locale),
        })}
      </h1>
      <FormAlert errors={actionData?.errors} />
      <Form method="post">
        <fieldset className="mb-3">
          <legend className="h6">{t('credits:methods.heading')}</legend>
          <div className="list-group">
            {methods.map((candidate) => (
              <label key={candidate} className="list-group-item d-flex gap-2 align-items-center">
                <input
                  className="form-check-input mt-0"
                  type="radio"
                  name="paymentmethod"
                  value={candidate}
                  checked={method === candidate}
                  onChange={() => setMethod(candidate)}
                />
                {t(`credits:method.${candidate}`)}
              </label>
            ))}
          </div>
        </fieldset>
        <div className="mb-3">
          <label htmlFor="discountcode" className="form-label">
            {t('credits:discount.label')}
          </label>
          <input
            id="discountcode"
            name="discountcode"
            className="form-control"
            defaultValue={welcome?.code ?? ''}
            maxLength={40}
          />
          {welcome && (
            <div className="form-text">
              {t('credits:discount.applied', { percentage: welcome.value_percentage })}
            </div>
          )}
        </div>
        <button
          type="submit"
          className="btn btn-primary btn-lg w-100"
          disabled={navigation.state === 'submitting'}
        >
          {t('credits:pay', { price: formatMoney(price, bundle.currency, locale) })}
        </button>
      </Form>
    </div>
  );
}
