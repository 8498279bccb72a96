import { useEffect, useState } from 'react';
import { Form, redirect, useNavigation } from 'react-router';
import { serverApi } from '#app/lib/api.ts';
import { pageMeta } from '#app/lib/meta.ts';
import { currentPushState, type PushState, subscribeToPush } from '#app/lib/push.ts';
import { useRootData } from '#app/lib/root-data.ts';
import { useTranslation } from '#app/lib/use-translation.ts';
import { usePush } from '#app/state/push.tsx';
import type { Route } from './+types/notifications';

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, 'page.notifications');
}

const types = ['messages', 'likes', 'matches', 'news'] as const;

export async function loader({ context }: Route.LoaderArgs) {
  const api = serverApi(context.api);
  const [answer, own] = await Promise.all([api('GET /api/notifications.php'), api('GET /api/profile.php')]);
  if (!answer.ok) throw redirect('/login?redirect=%2Fnotifications');
  return { ...answer.data, public_profile: own.ok ? own.data.profile.public_profile : false };
}

export async function action({ context, request }: Route.ActionArgs) {
  const api = serverApi(context.api);
  const form = await request.formData();
  if (form.get('intent') === 'public-profile') {
    const saved = await api('PUT /api/profile.php', {
      body: { public_profile: form.get('public_profile') === 'on' },
    });
    return { saved: saved.ok };
  }
  if (form.get('intent') === 'enable-email') {
    await api('PUT /api/notifications.php', { body: { enable_email: true } });
    return { saved: true };
  }
  const pick = (channel: 'email' | 'push') =>
    Object.fromEntries(types.map((type) => [type, form.get(`${channel}-${type}`) === 'on']));
  await api('PUT /api/notifications.php', { body: { email: pick('email'), push: pick('push') } });
  return { saved: true };
}

/** Notification settings (spec §2): per type for e-mail and push, why mails are off, push on this device. */
export default function Notifications({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { settings } = useRootData();
  const { setPushSubscribed } = usePush();
  const navigation = useNavigation();
  const [push, setPush] = useState<PushState>('unknown');
  useEffect(() => {
    void currentPushState().then((state) => {
      setPush(state);
      setPushSubscribed(state === 'subscribed');
    });
  }, [setPushSubscribed]);

  return (
    <div className="container py-4" style={{ maxWidth: 640 }}>
      <h1 className="h3">{t('page.notifications')}</h1>
      <p className="text-body-secondary">{t('notifications:lead')}</p>
      {actionData?.saved && (
        <div className="alert alert-success" role="status">
          {t('notifications:saved')}
        </div>
      )}
      {loaderData.notifications_disabled.length > 0 && (
        <div className="alert alert-warning" role="alert" data-testid="mails-disabled">
          {loaderData.notifications_disabled.map((reason) => (
            <p key={reason} className="mb-2">
              {t(`notifications:disabled.${reason}`)}
            </p>
          ))}
          <Form method="post">
            <input type="hidden" name="intent" value="enable-email" />
            <button type="submit" className="btn btn-sm btn-outline-dark">
              {t('notifications:enableEmail')}
            </button>
          </Form>
        </div>
      )}
      <Form method="post">
        <table className="table align-middle surface overflow-hidden">
          <thead>
            <tr>
              <th scope="col">
                <span className="visually-hidden">{t('page.notifications')}</span>
              </th>
              <th scope="col" className="text-center">
                {t('notifications:channel.email')}
              </th>
              <th scope="col" className="text-center">
                {t('notifications:channel.push')}
              </th>
            </tr>
          </thead>
          <tbody>
            {types.map((type) => (
              <tr key={type}>
                <th scope="row" className="fw-normal">
                  {t(`notifications:type.${type}`)}
                </th>
                {(['email', 'push'] as const).map((channel) => (
                  <td key={channel} className="text-center">
                    {channel === 'push' && push !== 'subscribed' ? (
                      // No push on this device: the box shows off (that is what the member gets here)
                      // and the stored choice goes back unchanged.
                      <>
                        <input
                          type="checkbox"
                          className="form-check-input"
                          checked={false}
                          disabled
                          readOnly
                          data-testid={`push-${type}`}
                          aria-describedby="push-off"
                          aria-label={`${t(`notifications:type.${type}`)} – ${t(`notifications:channel.${channel}`)}`}
                        />
                        {loaderData.push[type] && <input type="hidden" name={`push-${type}`} value="on" />}
                      </>
                    ) : (
                      <input
                        type="checkbox"
                        className="form-check-input"
                        name={`${channel}-${type}`}
                        defaultChecked={loaderData[channel][type]}
                        data-testid={`${channel}-${type}`}
                        aria-label={`${t(`notifications:type.${type}`)} – ${t(`notifications:channel.${channel}`)}`}
                      />
                    )}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
        {push !== 'subscribed' && (
          <p id="push-off" className="form-text mt-0 mb-3">
            {t('notifications:push.offHere')}
          </p>
        )}
        <button type="submit" className="btn btn-primary" disabled={navigation.state === 'submitting'}>
          {t('notifications:save')}
        </button>
      </Form>
      <section className="mt-4" data-testid="privacy">
        <h2 className="h5">{t('notifications:privacy.heading')}</h2>
        <Form method="post">
          <input type="hidden" name="intent" value="public-profile" />
          <div className="form-check form-switch">
            <input
              type="checkbox"
              className="form-check-input"
              id="public-profile"
              name="public_profile"
              defaultChecked={loaderData.public_profile}
              aria-describedby="public-profile-help"
            />
            <label className="form-check-label" htmlFor="public-profile">
              {t('notifications:privacy.publicProfile', { site: settings.name })}
            </label>
          </div>
          <p id="public-profile-help" className="form-text">
            {t('notifications:privacy.publicProfileHelp')}
          </p>
          <button
            type="submit"
            className="btn btn-outline-primary"
            disabled={navigation.state === 'submitting'}
          >
            {t('notifications:privacy.save')}
          </button>
        </Form>
      </section>
      <section className="mt-4" data-testid="my-data">
        <h2 className="h5">{t('notifications:myData.heading')}</h2>
        <p>{t('notifications:myData.help')}</p>
        <a className="btn btn-outline-primary" href="/api/export.php" download="my-data.json">
          {t('notifications:myData.download')}
        </a>
      </section>
      <section className="mt-4" data-testid="push-state">
        <h2 className="h5">{t('notifications:push.heading')}</h2>
        {push === 'unsupported' && <p>{t('notifications:push.unsupported')}</p>}
        {push === 'denied' && <p>{t('notifications:push.denied')}</p>}
        {push === 'subscribed' && <p>{t('notifications:push.subscribed')}</p>}
        {(push === 'not-subscribed' || push === 'unknown') && (
          <>
            <p>{t('notifications:push.notSubscribed')}</p>
            <button
              type="button"
              className="btn btn-outline-primary"
              onClick={() =>
                void subscribeToPush(settings.push_public_key).then((state) => {
                  setPush(state);
                  setPushSubscribed(state === 'subscribed');
                })
              }
            >
              {t('notifications:push.enable')}
            </button>
          </>
        )}
      </section>
    </div>
  );
}
