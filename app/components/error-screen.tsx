import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

/** The 404 page and the generic error page of spec §8. */
export function ErrorScreen({ status = 500, message }: { status?: number; message?: string }) {
  const { t } = useTranslation();
  const notFound = status === 404;
  return (
    <main className="container py-5 text-center" id="main">
      <p className="display-4 fw-bold text-primary" aria-hidden="true">
        {status}
      </p>
      <h1 className="h3 mb-4">
        {notFound
          ? t('notFound.title', { defaultValue: 'This page could not be found' })
          : (message ?? t('error.title', { defaultValue: 'Error' }))}
      </h1>
      <Link to="/" className="btn btn-primary">
        {t('notFound.back', { defaultValue: 'Back to the home page' })}
      </Link>
    </main>
  );
}
