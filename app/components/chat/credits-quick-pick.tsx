import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { OfferPrice } from '#app/components/offer-price.tsx';
import { WelcomeCountdown } from '#app/components/time-bonus.tsx';
import { withReturn } from '#app/lib/after-payment.ts';
import { api } from '#app/lib/api.ts';
import { useTranslation } from '#app/lib/use-translation.ts';
import type { BundlesResponse } from '#contract/payments.ts';

/**
 * Bundles to top up without losing the conversation: the links carry the way back (`?return=`, kept
 * through the checkout and the payment's return page) and the draft waits in this tab's storage.
 * Each shows what the checkout will charge: with the welcome offer, its price after the discount.
 */
export function CreditsQuickPick({ conversation, onLeave }: { conversation: number; onLeave: () => void }) {
  const { t } = useTranslation();
  const [bundles, setBundles] = useState<BundlesResponse | null>(null);
  useEffect(() => {
    void api('GET /api/bundles.php').then((answer) => setBundles(answer.ok ? answer.data : null));
  }, []);
  const back = `/chats/${conversation}`;
  return (
    <div className="quick-pick border rounded-4 p-2 mb-2" data-testid="credits-quick-pick">
      <p className="small fw-semibold mb-1">{t('chat:quickPick.title')}</p>
      <WelcomeCountdown className="small text-success fw-semibold mb-2" />
      <div className="quick-pick-bundles">
        {(bundles?.bundles ?? []).slice(0, 3).map((bundle) => (
          <Link
            key={bundle.id}
            to={withReturn(`/credits/${bundle.id}`, back)}
            className="btn btn-outline-primary btn-sm quick-pick-bundle"
            onClick={onLeave}
            data-testid="quick-pick-bundle"
          >
            <span className="d-block fw-bold">{t('chat:quickPick.credits', { count: bundle.credits })}</span>{' '}
            <OfferPrice
              bundle={{ ...bundle, country: bundles?.country }}
              method={bundles?.paymentmethods[0]}
              className="small"
            />
          </Link>
        ))}
      </div>
      <Link to={withReturn('/credits', back)} className="btn btn-link btn-sm px-0 mt-1" onClick={onLeave}>
        {t('chat:quickPick.more')}
      </Link>
    </div>
  );
}
