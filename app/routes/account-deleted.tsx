import { Link } from 'react-router';
import { pageMeta } from '#app/lib/meta.ts';
import { useTranslation } from '#app/lib/use-translation.ts';
import type { Route } from './+types/account-deleted';

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, 'page.accountDeleted');
}

export default function AccountDeleted() {
  const { t } = useTranslation();
  return (
    <div className="container py-4" style={{ maxWidth: 560 }}>
      <h1 className="h3">{t('page.accountDeleted')}</h1>
      <p>{t('auth:deleted.lead')}</p>
      <Link to="/" className="btn btn-primary">
        {t('auth:deleted.home')}
      </Link>
    </div>
  );
}
