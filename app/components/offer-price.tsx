import { type PricedBundle, priceToPay } from '#app/lib/discounts.ts';
import { formatMoney, formatPercentOff } from '#app/lib/format.ts';
import { useRootData } from '#app/lib/root-data.ts';
import { useTranslation } from '#app/lib/use-translation.ts';
import { useWelcomeOffer } from '#app/state/welcome-offer.ts';

/**
 * What a bundle costs this member: the price the checkout will charge, and while the welcome offer
 * takes it off, the list price struck through and "−25%" beside it. One rule for every place a
 * price shows, so the chat, the credits pages and the checkout never tell two prices.
 */
export function usePriceToPay() {
  const welcome = useWelcomeOffer();
  return (bundle: PricedBundle, method?: string) => priceToPay(welcome, bundle, method);
}

export function OfferPrice({
  bundle,
  method,
  className,
}: {
  bundle: PricedBundle;
  /** The checkout's first payment method, for a code bound to methods. */
  method?: string | undefined;
  className?: string;
}) {
  const { t } = useTranslation();
  const { locale } = useRootData();
  const price = usePriceToPay()(bundle, method);
  const money = (cents: number) => formatMoney(cents, bundle.currency, locale);
  if (price.percentage === null)
    return (
      <span className={className} data-testid="price">
        {money(price.amount)}
      </span>
    );
  return (
    <span className={`offer-price${className ? ` ${className}` : ''}`} data-testid="price">
      <span className="offer-price-now">{money(price.amount)}</span>{' '}
      <del className="offer-price-was">
        <span className="visually-hidden">{t('credits:bundle.was', { price: money(price.listPrice) })}</span>
        <span aria-hidden="true">{money(price.listPrice)}</span>
      </del>{' '}
      <span className="offer-off">{formatPercentOff(price.percentage, locale)}</span>
    </span>
  );
}
