import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { currentPushState, type PushFailure, type PushState, subscribeToPush } from '#app/lib/push.ts';
import { useRootData } from '#app/lib/root-data.ts';
import { useDismissal } from '#app/lib/use-dismissal.ts';
import { useTranslation } from '#app/lib/use-translation.ts';
import { useSession } from '#app/state/session.tsx';
import { ActivationReminder } from './activation-reminder.tsx';

function Banner({
  variant,
  children,
  onDismiss,
  testId,
}: {
  variant: 'info' | 'warning';
  children: React.ReactNode;
  onDismiss?: () => void;
  testId: string;
}) {
  const { t } = useTranslation();
  return (
    <div
      className={`shell-banner${variant === 'warning' ? ' is-warning' : ''}`}
      role="status"
      data-testid={testId}
    >
      <div className="flex-grow-1">{children}</div>
      {onDismiss && (
        <button type="button" className="btn-close" aria-label={t('alert.dismiss')} onClick={onDismiss} />
      )}
    </div>
  );
}

/**
 * The members' alerts (spec §3, §8): at most one at a time, the most important first — activation,
 * disabled e-mail notifications, missing photo, push, a fuller profile. Dismissing one shows the next
 * on a later page.
 */
export function WarningBanners() {
  const { t } = useTranslation();
  const { user } = useSession();
  const notifications = useDismissal('hide-disabled-notifications-alert');
  const enrich = useDismissal('hide-enrich-alert');
  const pushAlert = useDismissal('hide-push-notification-alert');
  const { settings } = useRootData();
  const [push, setPush] = useState<PushState>('unknown');
  const [pushFailure, setPushFailure] = useState<PushFailure | null>(null);
  useEffect(() => {
    if (user) void currentPushState().then(setPush);
  }, [user]);
  if (!user) return null;
  const banners: React.ReactNode[] = [];
  if (user.status === 'not_confirmed' && user.profile.status === 'disabled')
    banners.push(<ActivationReminder key="activation" />);
  if (user.notifications_disabled.length > 0 && !notifications.dismissed) {
    banners.push(
      <Banner
        key="notifications"
        variant="warning"
        onDismiss={notifications.dismiss}
        testId="notifications-alert"
      >
        {t('alert.notificationsDisabled')}{' '}
        <Link to="/notifications" className="alert-link">
          {t('alert.notificationsDisabledAction')}
        </Link>
      </Banner>,
    );
  }
  if (!user.profile.main_image) {
    banners.push(
      <Banner key="photo" variant="info" testId="profile-photo-alert">
        {t('alert.profilePhoto')}{' '}
        <Link to="/profile#photos" className="alert-link">
          {t('alert.profilePhotoAction')}
        </Link>
      </Banner>,
    );
  }
  if (user.profile.main_image && !user.profile.complete && !enrich.dismissed) {
    banners.push(
      <Banner key="enrich" variant="info" onDismiss={enrich.dismiss} testId="enrich-alert">
        {t('alert.enrich')}{' '}
        <Link to="/profile" className="alert-link">
          {t('alert.enrichAction')}
        </Link>
      </Banner>,
    );
  }
  // After a failed try the banner stays, saying why and how to allow push, until dismissed.
  if ((push === 'not-subscribed' || pushFailure) && !pushAlert.dismissed) {
    banners.push(
      <Banner key="push" variant="info" onDismiss={pushAlert.dismiss} testId="push-alert">
        {pushFailure ? (
          <span role="alert" data-testid="push-failure">
            {t(`notifications:push.failure.${pushFailure}`)}
            {(pushFailure === 'blocked' || push === 'denied') && <> {t('notifications:push.howToAllow')}</>}
          </span>
        ) : (
          t('alert.enablePush')
        )}{' '}
        {push === 'not-subscribed' && (
          <button
            type="button"
            className="btn btn-link alert-link p-0 align-baseline"
            onClick={() =>
              void subscribeToPush(settings.push_public_key).then((outcome) => {
                setPush(outcome.state);
                setPushFailure(outcome.failure);
              })
            }
          >
            {t('alert.enablePushAction')}
          </button>
        )}
      </Banner>,
    );
  }
  if (banners.length === 0) return null;
  return <div className="container">{banners[0]}</div>;
}
