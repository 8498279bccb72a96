import { Link } from 'react-router';
import { useTranslation } from '#app/lib/use-translation.ts';

/** A conversation that is gone, or a partner deleted, banned or blocking: "no longer available". */
export function ChatUnavailable() {
  const { t } = useTranslation();
  return (
    <section className="flex-grow-1 d-flex flex-column align-items-center justify-content-center p-4 text-center">
      <h1 className="h5" data-testid="chat-unavailable">
        {t('chat:unavailable')}
      </h1>
      <p className="text-body-secondary">{t('chat:unavailableHint')}</p>
      <Link to="/chats" className="btn btn-primary">
        {t('chat:back')}
      </Link>
    </section>
  );
}
