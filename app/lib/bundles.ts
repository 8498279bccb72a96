import type { BundlesResponse } from '#contract/payments.ts';

type Bundle = BundlesResponse['bundles'][number];

/** What one message costs with a bundle, in cents (fractional: shown rounded by the currency format). */
export function pricePerMessage(bundle: Pick<Bundle, 'price' | 'credits'>, messageCredits: number): number {
  const messages = bundle.credits / Math.max(1, messageCredits);
  return messages > 0 ? bundle.price / messages : bundle.price;
}

/**
 * The bundle the page anchors on: the one the back office marked "most popular"; when none is
 * marked, the middle one of three or more (the usual anchor); none for one or two bundles.
 */
export function anchorBundleId(bundles: ReadonlyArray<Pick<Bundle, 'id' | 'badge'>>): number | null {
  const marked = bundles.find((bundle) => bundle.badge === 'most_popular');
  if (marked) return marked.id;
  if (bundles.some((bundle) => bundle.badge)) return null;
  return bundles.length >= 3 ? (bundles[Math.floor((bundles.length - 1) / 2)]?.id ?? null) : null;
}
