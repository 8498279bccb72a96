import { ChatHeartFill, HeartFill, House, Search } from 'react-bootstrap-icons';
import { Link } from 'react-router';
import { useTranslation } from '#app/lib/use-translation.ts';
import { useOptionalSession } from '#app/state/session.tsx';

/**
 * The 404 page and the generic error page of spec §8: message (default "Error") and status
 * (default 500), shown inside the normal layout with the ways on.
 */
export function ErrorScreen({ status = 500, message }: { status?: number; message?: string }) {
  const { t } = useTranslation();
  const member = Boolean(useOptionalSession()?.user);
  const notFound = status === 404;
  const heading = notFound
    ? t('notFound.title', { defaultValue: 'This page could not be found' })
    : (message ?? t('error.title', { defaultValue: 'Error' }));
  return (
    <section className="error-hero" data-testid="error-page">
      <title>{heading}</title>
      <p className="error-code text-gradient mb-2" aria-hidden="true" data-testid="error-status">
        {status}
      </p>
      <h1 className="h3 mb-3">{heading}</h1>
      <p className="text-body-secondary mb-4">
        {notFound
          ? t('notFound.lead', { defaultValue: 'The link may be broken, or the page has moved.' })
          : t('error.lead', {
              defaultValue: 'Something went wrong on our side. Please try again in a moment.',
            })}
      </p>
      <div className="d-flex flex-wrap justify-content-center gap-2">
        {member ? (
          <>
            <Link to="/members" className="btn btn-cta">
              <Search aria-hidden="true" className="me-2" />
              {t('nav.search')}
            </Link>
            <Link to="/likes" className="btn btn-outline-primary">
              <HeartFill aria-hidden="true" className="me-2" />
              {t('nav.likes')}
            </Link>
            <Link to="/chats" className="btn btn-outline-primary">
              <ChatHeartFill aria-hidden="true" className="me-2" />
              {t('nav.chats')}
            </Link>
          </>
        ) : (
          <Link to="/" className="btn btn-cta">
            <House aria-hidden="true" className="me-2" />
            {t('notFound.back', { defaultValue: 'Back to the home page' })}
          </Link>
        )}
      </div>
    </section>
  );
}
