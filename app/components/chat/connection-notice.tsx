import { useTranslation } from '#app/lib/use-translation.ts';
import type { ConnectionStatus } from '#app/state/live-socket.ts';

/** A strip under the header while the conversation is not live: reconnecting, or offline. */
export function ConnectionNotice({ status }: { status: ConnectionStatus }) {
  const { t } = useTranslation();
  if (status === 'reconnecting')
    return (
      <div className="alert alert-warning rounded-0 mb-0 py-1 small text-center" role="status">
        {t('chat:connection.reconnecting')}
      </div>
    );
  if (status === 'offline')
    return (
      <div
        className="alert alert-secondary rounded-0 mb-0 py-1 small text-center"
        role="status"
        data-testid="chat-offline"
      >
        {t('chat:connection.offline')}
      </div>
    );
  return null;
}
