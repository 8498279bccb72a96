import { Link } from 'react-router';
import { useTranslation } from '#app/lib/use-translation.ts';
import type { FailReason } from '#app/state/chat/convo.ts';
import { CreditsQuickPick } from './credits-quick-pick.tsx';

/** After a send the balance or the membership refused: the way to top up, or to premium. */
export function Paywall({
  outOf,
  conversation,
  onLeave,
}: {
  outOf: FailReason | null;
  conversation: number;
  /** Called on the way to the checkout, so the draft waits for the way back. */
  onLeave: () => void;
}) {
  const { t } = useTranslation();
  if (outOf === 'insufficient_credits')
    return <CreditsQuickPick conversation={conversation} onLeave={onLeave} />;
  if (outOf === 'premium_required')
    return (
      <div className="alert alert-info py-2 small mb-2" role="status">
        <Link to="/premium" className="alert-link">
          {t('chat:getPremium')}
        </Link>
      </div>
    );
  return null;
}
