import { ArrowRepeat, CheckCircleFill } from 'react-bootstrap-icons';
import { Form, Link } from 'react-router';
import { CreditsIcon } from '#app/components/credits-icon.tsx';
import { PaymentLogo } from '#app/components/payment-logo.tsx';
import { TimeBonusBanner } from '#app/components/time-bonus.tsx';
import { returnPathOfRequest } from '#app/lib/after-payment.ts';
import { serverApi } from '#app/lib/api.ts';
import { anchorBundleId, pricePerMessage } from '#app/lib/bundles.ts';
import { priceToPay } from '#app/lib/discounts.ts';
import { formatMoney, formatPercentOff } from '#app/lib/format.ts';
import { pageMeta } from '#app/lib/meta.ts';
import { useRootData } from '#app/lib/root-data.ts';
import { useTranslation } from '#app/lib/use-translation.ts';
import { useSession } from '#app/state/session.tsx';
import type { Route } from './+types/credits';

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, 'page.credits');
}

export async function loader({ context, request }: Route.LoaderArgs) {
  const api = serverApi(context.api);
  // A code the member typed here or followed a link with (?discountcode=): the prices show it.
  const typed = (new URL(request.url).searchParams.get('discountcode') ?? '').trim().slice(0, 40);
  const [bundles, welcome, entered] = await Promise.all([
    api('GET /api/bundles.php'),
    api('GET /api/discountcode.php', { query: { welcome: 'true' } }),
    typed ? api('GET /api/discountcode.php', { query: { code: typed } }) : null,
  ]);
  // A failing welcome call is ignored (spec §8): the page works without the offer.
  // renderedAt: the countdown's first render counts from it on the server and when hydrating.
  if (!bundles.ok) throw new Response(null, { status: bundles.status || 500 });
  return {
    bundles: bundles.data,
    welcome: welcome.ok ? welcome.data : null,
    typed,
    code: entered?.ok ? entered.data : null,
    codeError: entered && !entered.ok ? entered.error.message : null,
    renderedAt: Date.now(),
    // Where the member came from (a chat that ran out of credits), carried on to the checkout.
    back: returnPathOfRequest(request),
  };
}

/** The credit bundles: per-message price, a "most popular" anchor, the payment methods; the first makes Premium. */
export default function Credits({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { locale, settings } = useRootData();
  const { user } = useSession();
  const { bundles, welcome, renderedAt, back, typed, code, codeError } = loaderData;
  const anchor = anchorBundleId(bundles.bundles);
  // The code the checkout opens with: the one the member entered, else the welcome offer.
  const offer = code ?? welcome;
  // The price the checkout opens with: the one rule of every price the member sees.
  const priceOf = (bundle: (typeof bundles.bundles)[number]) =>
    priceToPay(offer, { ...bundle, country: bundles.country }, bundles.paymentmethods[0]);
  const checkoutOf = (bundle: number) => {
    const query = new URLSearchParams(code ? { discountcode: code.code } : {});
    if (back) query.set('return', back);
    return `/credits/${bundle}${query.size > 0 ? `?${query}` : ''}`;
  };
  return (
    <div className="container py-4" style={{ maxWidth: 1040 }}>
      <div className="d-flex flex-wrap align-items-center justify-content-between gap-3 mb-3">
        <div>
          <h1 className="h2 mb-1">{t('credits:heading')}</h1>
          <p className="text-body-secondary mb-0">{t('credits:lead')}</p>
        </div>
        {user && (
          <div className="d-flex flex-wrap align-items-center gap-2">
            {/* Someone who bought before can take the same bundle and method again in one tap. */}
            {user.paid_user && (
              <Link
                to="/credits/repeat-order"
                className="btn btn-outline-primary btn-sm"
                data-testid="repeat-order-link"
              >
                <ArrowRepeat aria-hidden="true" className="me-1" />
                {t('credits:repeat.heading')}
              </Link>
            )}
            <p className="balance-chip mb-0 fs-5" data-testid="credits-balance">
              <CreditsIcon size={22} />
              {t('credits:balance.current', { count: user.credits })}
            </p>
          </div>
        )}
      </div>
      {welcome && !code && <TimeBonusBanner code={welcome} renderedAt={renderedAt} />}
      <Form method="get" className="mb-2" style={{ maxWidth: 360 }} data-testid="credits-code">
        {back && <input type="hidden" name="return" value={back} />}
        <label htmlFor="credits-discountcode" className="visually-hidden">
          {t('credits:discount.label')}
        </label>
        <div className="input-group input-group-sm">
          <input
            id="credits-discountcode"
            name="discountcode"
            className={`form-control${codeError ? ' is-invalid' : ''}`}
            placeholder={t('credits:discount.label')}
            defaultValue={typed}
            maxLength={40}
            aria-describedby="credits-discountcode-help"
          />
          <button type="submit" className="btn btn-outline-secondary">
            {t('credits:discount.apply')}
          </button>
        </div>
        <div id="credits-discountcode-help" aria-live="polite">
          {codeError ? (
            <div className="invalid-feedback d-block">{codeError}</div>
          ) : code ? (
            <div className="form-text" data-testid="credits-code-applied">
              {t('credits:discount.applied', { percentage: code.value_percentage })}
            </div>
          ) : null}
        </div>
      </Form>
      <ul className="row row-cols-2 row-cols-lg-4 g-3 list-unstyled pt-3" data-testid="bundles">
        {bundles.bundles.map((bundle) => {
          const popular = bundle.id === anchor;
          const price = priceOf(bundle);
          const ribbon = popular ? 'most_popular' : bundle.badge;
          return (
            <li key={bundle.id} className="col">
              <div
                className={`bundle-card h-100 px-2 py-4 p-sm-4 text-center d-flex flex-column${popular ? ' is-popular' : ''}`}
                data-testid={popular ? 'bundle-popular' : undefined}
              >
                {ribbon && <span className="bundle-ribbon">{t(`credits:badge.${ribbon}`)}</span>}
                <h2 className="mb-1">
                  <span className="bundle-credits d-block">{bundle.credits}</span>
                  <span className="h6 text-body-secondary fw-semibold">
                    {t('credits:bundle.creditsWord', { count: bundle.credits })}
                  </span>
                </h2>
                {/* A price, not a paragraph under the heading (nor a heading of its own). */}
                <div className="fs-4 fw-bold mb-0 mt-2" data-testid="bundle-price">
                  {formatMoney(price.amount, bundle.currency, locale)}
                </div>
                {price.percentage !== null && (
                  <p className="small text-body-secondary mb-0">
                    <span className="text-decoration-line-through">
                      {t('credits:bundle.was', {
                        price: formatMoney(price.listPrice, bundle.currency, locale),
                      })}
                    </span>{' '}
                    <span className="offer-off">{formatPercentOff(price.percentage, locale)}</span>
                  </p>
                )}
                <p className="small text-body-secondary mb-3" data-testid="per-message">
                  {t('credits:bundle.perMessage', {
                    price: formatMoney(
                      pricePerMessage(
                        { price: price.amount, credits: bundle.credits },
                        settings.message_credits,
                      ),
                      bundle.currency,
                      locale,
                    ),
                  })}
                </p>
                <Link
                  to={checkoutOf(bundle.id)}
                  className={`btn mt-auto ${popular ? 'btn-cta' : 'btn-outline-primary'}`}
                  aria-label={t('labelValue', {
                    label: t('credits:bundle.choose'),
                    value: t('credits:bundle.credits', { count: bundle.credits }),
                  })}
                >
                  {t('credits:bundle.choose')}
                </Link>
              </div>
            </li>
          );
        })}
      </ul>
      <section
        className="surface p-3 p-sm-4 mt-4 d-flex flex-wrap align-items-center gap-3"
        aria-labelledby="methods-heading"
      >
        <h2 id="methods-heading" className="h6 mb-0">
          {t('credits:methods.accepted')}
        </h2>
        <ul className="payment-logos" data-testid="payment-logos">
          {bundles.paymentmethods.map((method) => (
            <li key={method}>
              <PaymentLogo method={method} />
            </li>
          ))}
        </ul>
      </section>
      <ul className="list-unstyled mt-4 small text-body-secondary">
        {(['premium', 'noSubscription', 'keep'] as const).map((point) => (
          <li key={point} className="d-flex gap-2 mb-1">
            <CheckCircleFill aria-hidden="true" className="text-success flex-shrink-0 mt-1" />
            {t(`credits:promise.${point}`)}
          </li>
        ))}
      </ul>
    </div>
  );
}
