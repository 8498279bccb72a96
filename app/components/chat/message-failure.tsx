import { ExclamationCircle } from 'react-bootstrap-icons';
import { useTranslation } from '#app/lib/use-translation.ts';
import type { ConvoView, FailedItem } from '#app/state/chat/convo.ts';

/** A message that was not sent: why, with retry (while the conversation can send) and discard. */
export function MessageFailure({ item, view }: { item: FailedItem; view: ConvoView }) {
  const { t } = useTranslation();
  return (
    <div className="d-flex justify-content-end align-items-center gap-2 small text-danger" role="alert">
      <ExclamationCircle aria-hidden="true" />
      <span data-testid="message-failed">
        {item.reason === 'offline'
          ? t('chat:status.failedOffline')
          : (item.detail ?? t('chat:status.failed'))}
      </span>
      {'retry' in view && (
        <button
          type="button"
          className="btn btn-link btn-sm p-0"
          onClick={() => view.retry(item.clientId)}
          data-testid="message-retry"
        >
          {t('chat:retry')}
        </button>
      )}
      <button
        type="button"
        className="btn btn-link btn-sm p-0 text-body-secondary"
        onClick={() => view.discard(item.clientId)}
      >
        {t('chat:discard')}
      </button>
    </div>
  );
}
