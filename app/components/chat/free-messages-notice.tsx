import { useEffect, useRef, useState } from 'react';
import { readDismissal, storeDismissal } from '#app/lib/use-dismissal.ts';
import { useTranslation } from '#app/lib/use-translation.ts';
import type { Costs } from '#contract/chats.ts';

/**
 * Once, at the moment the member's last free message goes out: from now on each message costs
 * credits, and how many. Shown when the count drops to zero in front of the member (not to a
 * member who never had free messages), and never again on this device after that.
 */
export function FreeMessagesNotice({ costs }: { costs: Costs }) {
  const { t } = useTranslation();
  const before = useRef(costs.free_messages_left);
  const [shown, setShown] = useState(false);
  useEffect(() => {
    const ranOut = before.current > 0 && costs.free_messages_left === 0;
    before.current = costs.free_messages_left;
    if (ranOut && readDismissal('seen-free-messages-used-up') === null) {
      storeDismissal('seen-free-messages-used-up');
      setShown(true);
    }
  }, [costs.free_messages_left]);
  if (!shown) return null;
  return (
    <div
      className="alert alert-warning py-2 small mb-2 d-flex align-items-center gap-2"
      role="status"
      data-testid="free-messages-used-up"
    >
      <span className="flex-grow-1">{t('chat:freeUsedUp', { count: costs.message })}</span>
      <button type="button" className="btn btn-sm btn-outline-dark" onClick={() => setShown(false)}>
        {t('chat:freeUsedUpDismiss')}
      </button>
    </div>
  );
}
