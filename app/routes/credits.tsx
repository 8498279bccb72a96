import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { BundlesResponse, DiscountCode } from '#contract/payments.ts';
import { TimeBonusBanner } from '../components/time-bonus.tsx';
import { discounted } from '../lib/discounts.ts';
import { formatMoney } from '../lib/format.ts';
import { pageMeta } from '../lib/meta.ts';
import { useRootData } from '../lib/root-data.ts';
import type { Route } from './+types/credits';

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, 'page.credits');
}

export async function loader({ context }: Route.LoaderArgs) {
  const [bundles, welcome] = await Promise.all([
    context.api<BundlesResponse>('/api/bundles.php'),
    context.api<DiscountCode>('/api/discountcode.php?welcome=true'),
  ]);
  // A failing welcome call is ignored (spec §8): the page works without the offer.
  // renderedAt: the countdown's first render counts from it on the server and when hydrating.
  return { bundles: bundles.data, welcome: welcome.ok ? welcome.data : null, renderedAt: Date.now() };
}

/** The credit bundles; the first one bought makes the member Premium. */
export default function Credits({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { locale } = useRootData();
  const { bundles, welcome, renderedAt } = loaderData;
  return (
    <div className="container py-4">
      <h1 className="h3">{t('credits:heading')}</h1>
      <p className="text-body-secondary">{t('credits:lead')}</p>
      {welcome && <TimeBonusBanner code={welcome} renderedAt={renderedAt} />}
      <ul className="row row-cols-1 row-cols-sm-2 row-cols-lg-4 g-3 list-unstyled" data-testid="bundles">
        {bundles.bundles.map((bundle) => (
          <li key={bundle.id} className="col">
            <div className="card h-100 text-center">
              <div className="card-body d-flex flex-column">
                <h2 className="h4">{t('credits:bundle.credits', { count: bundle.credits })}</h2>
                <p className="fs-5 fw-semibold mb-1">
                  {formatMoney(
                    welcome ? discounted(bundle.price, welcome.value_percentage) : bundle.price,
                    bundle.currency,
                    locale,
                  )}
                </p>
                {welcome && (
                  <p className="small text-body-secondary text-decoration-line-through">
                    {t('credits:bundle.was', { price: formatMoney(bundle.price, bundle.currency, locale) })}
                  </p>
                )}
                <Link to={`/credits/${bundle.id}`} className="btn btn-primary mt-auto">
                  {t('credits:bundle.choose')}
                </Link>
              </div>
            </div>
          </li>
        ))}
      </ul>
    </div>
  );
}
