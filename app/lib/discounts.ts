import type { DiscountCode } from '#contract/payments.ts';

/** The price after a percentage discount, in integer cents, rounded as the server rounds it. */
export function discounted(cents: number, percentage: number): number {
  return Math.round((cents * (100 - percentage)) / 100);
}

/** The bundle as the price rules see it: its list price and currency, and the country it is sold in. */
export type PricedBundle = { price: number; currency: string; country?: string | undefined };

/**
 * Whether the checkout would take this code off this bundle, by the rules the server's quote checks
 * before any method is chosen (country, currency, minimum order). A code bound to payment methods
 * counts only when the checkout's first method (`method`) is one of them: that is the price it opens with.
 */
export function codeApplies(code: DiscountCode, bundle: PricedBundle, method?: string): boolean {
  if (code.expired || code.status !== 'active') return false;
  if (code.country && bundle.country && code.country !== bundle.country) return false;
  if (code.currency && code.currency !== bundle.currency) return false;
  if (bundle.price < code.minimum_order_value) return false;
  if (code.paymentmethods.length > 0 && !(method && code.paymentmethods.includes(method))) return false;
  return true;
}

/** What the member pays for a bundle: the list price, or the discounted one while the code applies. */
export function priceToPay(
  code: DiscountCode | null,
  bundle: PricedBundle,
  method?: string,
): { amount: number; listPrice: number; percentage: number | null } {
  if (!code || !codeApplies(code, bundle, method))
    return { amount: bundle.price, listPrice: bundle.price, percentage: null };
  return {
    amount: discounted(bundle.price, code.value_percentage),
    listPrice: bundle.price,
    percentage: code.value_percentage,
  };
}
