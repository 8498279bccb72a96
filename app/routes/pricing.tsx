import { ChatHeartFill, Gift, Image } from 'react-bootstrap-icons';
import { OfferPrice, usePriceToPay } from '#app/components/offer-price.tsx';
import { serverApi } from '#app/lib/api.ts';
import { anchorBundleId, pricePerMessage } from '#app/lib/bundles.ts';
import { formatMoney } from '#app/lib/format.ts';
import { pageMeta } from '#app/lib/meta.ts';
import { useRootData } from '#app/lib/root-data.ts';
import { useTranslation } from '#app/lib/use-translation.ts';
import type { Route } from './+types/pricing';

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, 'page.pricing', { public: true });
}

export async function loader({ context }: Route.LoaderArgs) {
  const bundles = await serverApi(context.api)('GET /api/bundles.php');
  if (!bundles.ok) throw new Response(null, { status: bundles.status || 500 });
  return bundles.data;
}

/** Public prices: what chat costs in credits, and the bundles (with the price of a message) in the visitor's currency. */
export default function Pricing({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { settings, locale } = useRootData();
  const anchor = anchorBundleId(loaderData.bundles);
  // A member in the welcome offer's hours sees the prices the checkout will charge.
  const priceOf = usePriceToPay();
  const method = loaderData.paymentmethods[0];
  const costs = [
    { key: 'message', count: settings.message_credits, icon: <ChatHeartFill size={22} /> },
    { key: 'photo', count: settings.photo_credits, icon: <Image size={22} /> },
    { key: 'gift', count: settings.gift_credits, icon: <Gift size={22} /> },
  ] as const;
  return (
    <div className="container py-4" style={{ maxWidth: 860 }}>
      <h1 className="h2">{t('page.pricing')}</h1>
      <p className="text-body-secondary">{t('credits:pricing.lead')}</p>
      <ul className="row row-cols-1 row-cols-sm-3 g-3 list-unstyled">
        {costs.map((cost) => (
          <li key={cost.key} className="col">
            <div className="card h-100">
              <div className="card-body d-flex align-items-center gap-3">
                <span className="text-primary" aria-hidden="true">
                  {cost.icon}
                </span>
                {t(`credits:pricing.${cost.key}`, { count: cost.count })}
              </div>
            </div>
          </li>
        ))}
      </ul>
      <p className="mt-3">{t('credits:pricing.freeMessages', { count: settings.free_messages })}</p>
      <h2 className="h4 mt-4">{t('credits:pricing.bundles')}</h2>
      <ul className="row row-cols-2 row-cols-md-4 g-3 list-unstyled" data-testid="pricing-bundles">
        {loaderData.bundles.map((bundle) => (
          <li key={bundle.id} className="col">
            <div
              className={`card h-100 text-center${bundle.id === anchor ? ' border border-2 border-primary' : ''}`}
            >
              <div className="card-body">
                {bundle.id === anchor && (
                  <span className="badge rounded-pill text-bg-primary mb-2">
                    {t('credits:badge.most_popular')}
                  </span>
                )}
                <p className="fw-bold fs-5 mb-1">{t('credits:bundle.credits', { count: bundle.credits })}</p>
                <p className="fs-5 mb-1">
                  <OfferPrice bundle={{ ...bundle, country: loaderData.country }} method={method} />
                </p>
                <p className="small text-body-secondary mb-0">
                  {t('credits:bundle.perMessage', {
                    price: formatMoney(
                      pricePerMessage(
                        {
                          credits: bundle.credits,
                          price: priceOf({ ...bundle, country: loaderData.country }, method).amount,
                        },
                        settings.message_credits,
                      ),
                      bundle.currency,
                      locale,
                    ),
                  })}
                </p>
              </div>
            </div>
          </li>
        ))}
      </ul>
    </div>
  );
}
