import { Form, Link, redirect, useNavigation } from 'react-router';
import { FormAlert } from '#app/components/forms/form-field.tsx';
import { PaymentLogo } from '#app/components/payment-logo.tsx';
import { formError, formText } from '#app/lib/actions.server.ts';
import { serverApi } from '#app/lib/api.ts';
import { formatMoney } from '#app/lib/format.ts';
import { pageMeta } from '#app/lib/meta.ts';
import { useRootData } from '#app/lib/root-data.ts';
import { useTranslation } from '#app/lib/use-translation.ts';
import type { Route } from './+types/credits-repeat-order';

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, 'page.credits');
}

/** What a repeat order would buy and charge, from the server (GET /api/repeat-order.php). */
export async function loader({ context }: Route.LoaderArgs) {
  const answer = await serverApi(context.api)('GET /api/repeat-order.php');
  return { quote: answer.ok ? answer.data : null };
}

export async function action({ context, request }: Route.ActionArgs) {
  const amount = Number(formText(await request.formData(), 'amount'));
  const result = await serverApi(context.api)('POST /api/repeat-order.php', {
    // The amount the member confirmed: the order is refused (price_changed) if it would charge another.
    body: Number.isInteger(amount) && amount >= 0 ? { amount } : {},
  });
  if (!result.ok) return formError(result);
  throw redirect(result.data.checkout_url);
}

/** Buy the last bundle again with the last method: bundle, price and method first, then one confirming tap. */
export default function RepeatOrder({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { locale } = useRootData();
  const navigation = useNavigation();
  const { quote } = loaderData;
  return (
    <div className="container py-4" style={{ maxWidth: 560 }}>
      <h1 className="h3">{t('credits:repeat.heading')}</h1>
      <FormAlert errors={actionData?.errors} />
      {quote ? (
        <Form method="post" data-testid="repeat-order" className="surface p-4">
          <dl className="row mb-3">
            <dt className="col-5">{t('credits:repeat.bundle')}</dt>
            <dd className="col-7">{t('credits:bundle.credits', { count: quote.credits })}</dd>
            <dt className="col-5">{t('credits:repeat.price')}</dt>
            <dd className="col-7" data-testid="repeat-price">
              {formatMoney(quote.amount, quote.currency, locale)}
            </dd>
            <dt className="col-5">{t('credits:transactions.method')}</dt>
            <dd className="col-7 d-flex align-items-center gap-2" data-testid="repeat-method">
              <PaymentLogo method={quote.paymentmethod} decorative />
              {t(`credits:method.${quote.paymentmethod}`)}
            </dd>
          </dl>
          <p className="text-body-secondary small">
            {quote.stored_mandate ? t('credits:repeat.chargedAtOnce') : t('credits:repeat.viaCheckout')}
          </p>
          <input type="hidden" name="amount" value={quote.amount} />
          <button type="submit" className="btn btn-cta" disabled={navigation.state === 'submitting'}>
            {t('credits:repeat.confirm', { price: formatMoney(quote.amount, quote.currency, locale) })}
          </button>{' '}
          <Link to="/credits" className="btn btn-link">
            {t('credits:spend.cancel')}
          </Link>
        </Form>
      ) : (
        <>
          <p>{t('credits:repeat.none')}</p>
          <Link to="/credits" className="btn btn-primary">
            {t('credits:premium.cta')}
          </Link>
        </>
      )}
    </div>
  );
}
