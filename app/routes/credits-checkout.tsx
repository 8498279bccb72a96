import { useEffect, useRef, useState } from 'react';
import { data, Form, redirect, useFetcher, useLocation, useNavigation } from 'react-router';
import { FormAlert } from '#app/components/forms/form-field.tsx';
import { PaymentLogo } from '#app/components/payment-logo.tsx';
import { formError, formText } from '#app/lib/actions.server.ts';
import { afterPaymentCookie, returnPathOf, returnPathOfRequest } from '#app/lib/after-payment.ts';
import { serverApi } from '#app/lib/api.ts';
import { formatMoney, formatPercentOff } from '#app/lib/format.ts';
import { pageMeta } from '#app/lib/meta.ts';
import { useRootData } from '#app/lib/root-data.ts';
import { useTranslation } from '#app/lib/use-translation.ts';
import type { ErrorBody } from '#contract/common.ts';
import type { Quote } from '#contract/payments.ts';
import type { Route } from './+types/credits-checkout';

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, 'page.credits');
}

type QuoteAnswer = { quote: Quote | null; quoteError: ErrorBody | null; code: string; method: string };

/**
 * The page's price is the server's quote (GET /api/quote.php), computed as the order computes it;
 * `?paymentmethod=&discountcode=` ask for another quote when the member changes either.
 */
export async function loader({ context, params, request }: Route.LoaderArgs) {
  const search = new URL(request.url).searchParams;
  const api = serverApi(context.api);
  const [bundles, welcome] = await Promise.all([
    api('GET /api/bundles.php'),
    api('GET /api/discountcode.php', { query: { welcome: 'true' } }),
  ]);
  if (!bundles.ok) throw data(null, { status: bundles.status || 500 });
  const bundle = bundles.data.bundles.find((candidate) => candidate.id === Number(params.id));
  // An unknown bundle id is a 404 inside the layout, like any wrong address.
  if (!bundle) throw data(null, { status: 404 });
  const methods = bundles.data.paymentmethods;
  const asked = search.get('paymentmethod') ?? params.paymentmethod ?? '';
  const method = methods.includes(asked) ? asked : (methods[0] ?? '');
  const code = (search.get('discountcode') ?? (welcome.ok ? welcome.data.code : '')).trim().slice(0, 40);
  const quote = await api('GET /api/quote.php', {
    query: { bundle: bundle.id, paymentmethod: method, ...(code ? { discountcode: code } : {}) },
  });
  const answer: QuoteAnswer = {
    quote: quote.ok ? quote.data : null,
    quoteError: quote.ok ? null : quote.error,
    code,
    method,
  };
  return { bundle, methods, back: returnPathOfRequest(request), ...answer };
}

export async function action({ context, request, params }: Route.ActionArgs) {
  const form = await request.formData();
  const code = formText(form, 'discountcode').trim();
  const amount = Number(formText(form, 'amount'));
  const result = await serverApi(context.api)('POST /api/order.php', {
    body: {
      bundle: Number(params.id),
      paymentmethod: formText(form, 'paymentmethod'),
      ...(code ? { discountcode: code } : {}),
      // The amount the member saw on the button: the order is refused if it would charge another.
      ...(Number.isInteger(amount) && amount >= 0 ? { amount } : {}),
    },
  });
  if (!result.ok) return formError(result);
  // The way back (a chat) is remembered for this order, for its return page after the provider.
  const back = returnPathOf(formText(form, 'return'));
  const secure = new URL(request.url).protocol === 'https:';
  throw redirect(
    result.data.checkout_url,
    back ? { headers: { 'Set-Cookie': afterPaymentCookie(result.data.order.id, back, secure) } } : undefined,
  );
}

/** A chosen bundle: payment method (credits-id-paymentmethod), discount code, pay. */
export default function CreditsCheckout({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { locale } = useRootData();
  const location = useLocation();
  const navigation = useNavigation();
  const fetcher = useFetcher<QuoteAnswer>();
  const { bundle, methods } = loaderData;
  const [method, setMethod] = useState(loaderData.method);
  const [code, setCode] = useState(loaderData.code);
  const requested = useRef({ method: loaderData.method, code: loaderData.code });

  // A new quote whenever the method or the code changes (the code after a short pause in typing).
  useEffect(() => {
    const wanted = { method, code: code.trim() };
    if (wanted.method === requested.current.method && wanted.code === requested.current.code) return;
    const timer = setTimeout(
      () => {
        requested.current = wanted;
        fetcher.load(
          `${location.pathname}?${new URLSearchParams({ paymentmethod: wanted.method, discountcode: wanted.code })}`,
        );
      },
      wanted.method === requested.current.method ? 350 : 0,
    );
    return () => clearTimeout(timer);
  }, [method, code, location.pathname, fetcher.load]);

  const current: QuoteAnswer =
    fetcher.data && fetcher.data.method === method && fetcher.data.code === code.trim()
      ? fetcher.data
      : loaderData;
  const upToDate = current.method === method && current.code === code.trim() && fetcher.state === 'idle';
  const quote = upToDate ? current.quote : null;
  const price = quote?.amount ?? bundle.price;
  return (
    <div className="container py-4" style={{ maxWidth: 560 }}>
      <h1 className="h3">
        {t('credits:chosenBundle', {
          count: bundle.credits,
          price: formatMoney(price, bundle.currency, locale),
        })}
      </h1>
      {quote && quote.amount < quote.list_price && quote.discount && (
        <p className="text-body-secondary" data-testid="checkout-list-price">
          <span className="text-decoration-line-through">
            {t('credits:bundle.was', { price: formatMoney(quote.list_price, quote.currency, locale) })}
          </span>{' '}
          <span className="offer-off">{formatPercentOff(quote.discount.value_percentage, locale)}</span>
        </p>
      )}
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
                <PaymentLogo method={candidate} decorative />
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
            className={`form-control${upToDate && current.quoteError ? ' is-invalid' : ''}`}
            value={code}
            onChange={(event) => setCode(event.target.value)}
            maxLength={40}
            aria-describedby="discountcode-help"
          />
          <div id="discountcode-help" aria-live="polite">
            {upToDate && current.quoteError ? (
              <div className="invalid-feedback d-block">{current.quoteError.message}</div>
            ) : upToDate && quote?.discount ? (
              <div className="form-text">
                {t('credits:discount.applied', { percentage: quote.discount.value_percentage })}
              </div>
            ) : null}
          </div>
        </div>
        {quote && <input type="hidden" name="amount" value={quote.amount} />}
        {loaderData.back && <input type="hidden" name="return" value={loaderData.back} />}
        <button
          type="submit"
          className="btn btn-cta btn-lg w-100"
          data-testid="pay"
          disabled={navigation.state === 'submitting' || !quote}
        >
          {quote
            ? t('credits:pay', { price: formatMoney(quote.amount, quote.currency, locale) })
            : upToDate
              ? t('credits:quote.checkCode')
              : t('credits:quote.checking')}
        </button>
      </Form>
    </div>
  );
}
