import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { withReturn } from '#app/lib/after-payment.ts';
import { api } from '#app/lib/api.ts';
import { formatMoney } from '#app/lib/format.ts';
import { useRootData } from '#app/lib/root-data.ts';
import { useTranslation } from '#app/lib/use-translation.ts';
import type { BundlesResponse } from '#contract/payments.ts';

/**
 * Bundles to top up without losing the conversation: the links carry the way back (`?return=`, kept
 * through the checkout and the payment's return page) and the draft waits in this tab's storage.
 */
export function CreditsQuickPick({ conversation, onLeave }: { conversation: number; onLeave: () => void }) {
  const { t } = useTranslation();
  const { locale } = useRootData();
  const [bundles, setBundles] = useState<BundlesResponse['bundles'] | null>(null);
  useEffect(() => {
    void api('GET /api/bundles.php').then((answer) => setBundles(answer.ok ? answer.data.bundles : []));
  }, []);
  const back = `/chats/${conversation}`;
  return (
    <div className="border rounded-3 p-2 mb-2" data-testid="credits-quick-pick">
      <p className="small fw-semibold mb-2">{t('chat:quickPick.title')}</p>
      <div className="d-flex gap-2 flex-wrap">
        {(bundles ?? []).slice(0, 3).map((bundle) => (
          <Link
            key={bundle.id}
            to={withReturn(`/credits/${bundle.id}`, back)}
            className="btn btn-outline-primary btn-sm"
            onClick={onLeave}
          >
            {t('chat:quickPick.credits', { count: bundle.credits })} ·{' '}
            {formatMoney(bundle.price, bundle.currency, locale)}
          </Link>
        ))}
        <Link to={withReturn('/credits', back)} className="btn btn-link btn-sm" onClick={onLeave}>
          {t('chat:quickPick.more')}
        </Link>
      </div>
    </div>
  );
}
