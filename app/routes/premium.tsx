import { CheckCircleFill } from 'react-bootstrap-icons';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { pageMeta } from '../lib/meta.ts';
import { useLiveState } from '../state/live-state.tsx';
import type { Route } from './+types/premium';

export const handle = { membersArea: true };

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, 'page.premium');
}

export default function Premium() {
  const { t } = useTranslation();
  const { user } = useLiveState();
  return (
    <div className="container py-4" style={{ maxWidth: 640 }}>
      <h1 className="h3">{t('page.premium')}</h1>
      <p className="lead">{t('credits:premium.lead')}</p>
      <ul className="list-unstyled">
        {(['photos', 'upload', 'chats', 'keep'] as const).map((benefit) => (
          <li key={benefit} className="mb-2 d-flex gap-2">
            <CheckCircleFill aria-hidden="true" className="text-success mt-1 flex-shrink-0" />
            {t(`credits:premium.${benefit}`)}
          </li>
        ))}
      </ul>
      {user?.paid_user ? (
        <p className="alert alert-success">{t('credits:premium.already')}</p>
      ) : (
        <Link to="/credits" className="btn btn-primary btn-lg">
          {t('credits:premium.cta')}
        </Link>
      )}
    </div>
  );
}
