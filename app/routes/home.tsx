import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useRootData } from '../lib/root-data.ts';

export default function Home() {
  const { t } = useTranslation();
  const { settings } = useRootData();
  return (
    <section className="container py-5">
      <h1 className="display-5 fw-bold">{t('home.heading', { site: settings.name })}</h1>
      <p className="lead">{t('home.lead')}</p>
      <div className="d-flex flex-wrap gap-2">
        <Link className="btn btn-primary btn-lg" to="/signup">
          {t('home.signup')}
        </Link>
        <Link className="btn btn-outline-primary btn-lg" to="/login">
          {t('home.login')}
        </Link>
      </div>
    </section>
  );
}
