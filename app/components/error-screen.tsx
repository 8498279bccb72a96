import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

/** The 404 page and the generic error page of spec §8: message (default "Error") and status (default 500). */
export function ErrorScreen({ status = 500, message }: { status?: number; message?: string }) {
  const { t } = useTranslation();
  const notFound = status === 404;
  const heading = notFound
    ? t('notFound.title', { defaultValue: 'This page could not be found' })
    : (message ?? t('error.title', { defaultValue: 'Error' }));
  return (
    <main className="container py-5 text-center flex-grow-1" id="main">
      <title>{heading}</title>
      <p className="display-4 fw-bold text-primary" aria-hidden="true" data-testid="error-status">
        {status}
      </p>
      <h1 className="h3 mb-4">{heading}</h1>
      <Link to="/" className="btn btn-primary">
        {t('notFound.back', { defaultValue: 'Back to the home page' })}
      </Link>
    </main>
  );
}
