import { useTranslation } from 'react-i18next';
import { useRouteLoaderData } from 'react-router';
import type { loader as rootLoader } from '../root.tsx';

export default function Home() {
  const { t } = useTranslation();
  const root = useRouteLoaderData<typeof rootLoader>('root');
  const site = root?.settings.name ?? '';
  return (
    <main className="container py-5" id="main">
      <h1 className="display-5 fw-bold">{t('home.heading', { site })}</h1>
      <p className="lead">{t('home.lead')}</p>
      <div className="d-flex gap-2">
        <a className="btn btn-primary btn-lg" href="/signup">
          {t('home.signup')}
        </a>
        <a className="btn btn-outline-primary btn-lg" href="/login">
          {t('home.login')}
        </a>
      </div>
    </main>
  );
}
