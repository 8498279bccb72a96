import { useEffect, useState } from 'react';
import { Form, redirect, useNavigation } from 'react-router';
import { serverApi } from '#app/lib/api.ts';
import { pageMeta } from '#app/lib/meta.ts';
import { currentPushState, type PushFailure, type PushState, subscribeToPush } from '#app/lib/push.ts';
import { useRootData } from '#app/lib/root-data.ts';
import { useTranslation } from '#app/lib/use-translation.ts';
import { usePush } from '#app/state/push.tsx';
import type { Route } from './+types/notifications';

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, 'page.notifications');
}

// The nudges (visitors, unread, likes_digest) sit next to the notifications they sum up.
const types = ['messages', 'unread', 'likes', 'likes_digest', 'matches', 'visitors', 'news'] as const;

export async function loader({ context }: Route.LoaderArgs) {
  const api = serverApi(context.api);
  const [answer, own] = await Promise.all([api('GET /api/notifications.php'), api('GET /api/profile.php')]);
  if (!answer.ok) throw redirect('/login?redirect=%2Fnotifications');
  return {
    ...answer.data,
    public_profile: own.ok ? own.data.profile.public_profile : false,
    browse_invisibly: own.ok ? own.data.profile.browse_invisibly : false,
  };
}

export async function action({ context, request }: Route.ActionArgs) {
  const api = serverApi(context.api);
  const form = await request.formData();
  if (form.get('intent') === 'public-profile') {
    const saved = await api('PUT /api/profile.php', {
      body: {
        public_profile: form.get('public_profile') === 'on',
        browse_invisibly: form.get('browse_invisibly') === 'on',
      },
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

/** One setting as a switch: its label, one line saying what it does, the switch at the end. */
function SettingSwitch({
  id,
  label,
  name,
  help,
  inputName,
  defaultChecked,
  checked,
  disabled,
  describedBy,
  keep,
}: {
  id: string;
  label: string;
  /** The switch's accessible name: the label plus what makes it unique on the page. */
  name: string;
  help: string;
  inputName?: string;
  defaultChecked?: boolean;
  checked?: boolean;
  disabled?: boolean;
  describedBy?: string;
  /** A stored "on" this page cannot change (a fixed switch): sent back as it is, under this name. */
  keep?: string;
}) {
  // Its own state (a fixed `checked` wins): aria-checked then always says what the box shows.
  const [own, setOn] = useState(Boolean(defaultChecked));
  const on = checked ?? own;
  return (
    <li className={`setting-row ${disabled ? 'is-disabled' : ''}`}>
      <label className="setting-text" htmlFor={id}>
        <span className="setting-label">{label}</span>
        <span className="setting-help" id={`${id}-help`}>
          {help}
        </span>
      </label>
      <span className="form-check form-switch setting-switch">
        <input
          type="checkbox"
          role="switch"
          className="form-check-input"
          id={id}
          name={inputName}
          checked={on}
          onChange={(event) => {
            if (checked === undefined) setOn(event.target.checked);
          }}
          readOnly={checked !== undefined}
          aria-checked={on}
          disabled={disabled}
          aria-label={name}
          aria-describedby={[`${id}-help`, describedBy].filter(Boolean).join(' ')}
          data-testid={id}
        />
      </span>
      {keep && <input type="hidden" name={keep} value="on" />}
    </li>
  );
}

/** Notification settings (spec §2): grouped switches per channel, why mails are off, push on this device. */
export default function Notifications({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { settings, user } = useRootData();
  const { setPushSubscribed } = usePush();
  const navigation = useNavigation();
  const [push, setPush] = useState<PushState>('unknown');
  const [failure, setFailure] = useState<PushFailure | null>(null);
  const [asking, setAsking] = useState(false);
  useEffect(() => {
    void currentPushState().then((state) => {
      setPush(state);
      setPushSubscribed(state === 'subscribed');
    });
  }, [setPushSubscribed]);
  const busy = navigation.state === 'submitting';
  const pushOn = push === 'subscribed';
  const enablePush = async () => {
    setAsking(true);
    setFailure(null);
    const outcome = await subscribeToPush(settings.push_public_key);
    setAsking(false);
    setPush(outcome.state);
    setFailure(outcome.failure);
    setPushSubscribed(outcome.state === 'subscribed');
  };
  const switchName = (type: (typeof types)[number], channel: 'email' | 'push') =>
    t('notifications:switchName', {
      type: t(`notifications:type.${type}`),
      channel: t(`notifications:channel.${channel}`),
    });

  return (
    <div className="container py-4 settings-page">
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
        <section className="settings-group" aria-labelledby="group-email" data-testid="email-group">
          <h2 className="settings-group-title" id="group-email">
            {t('notifications:group.email')}
          </h2>
          <p className="settings-note mb-0" data-testid="nudges-note">
            {t('notifications:nudgesNote')}
          </p>
          <ul className="settings-list">
            {types.map((type) => (
              <SettingSwitch
                key={type}
                id={`email-${type}`}
                inputName={`email-${type}`}
                label={t(`notifications:type.${type}`)}
                name={switchName(type, 'email')}
                help={t(`notifications:help.${type}`)}
                defaultChecked={loaderData.email[type]}
              />
            ))}
          </ul>
        </section>
        <section className="settings-group" aria-labelledby="group-push" data-testid="push-group">
          <h2 className="settings-group-title" id="group-push">
            {t('notifications:group.push')}
          </h2>
          <div className="settings-note" data-testid="push-state">
            {push === 'unsupported' && <p className="mb-0">{t('notifications:push.unsupported')}</p>}
            {push === 'denied' && (
              <p className="mb-0" {...(failure ? { role: 'alert', 'data-testid': 'push-failure' } : {})}>
                {failure === 'blocked'
                  ? t('notifications:push.failure.blocked')
                  : t('notifications:push.denied')}{' '}
                {t('notifications:push.howToAllow')}
              </p>
            )}
            {pushOn && <p className="mb-0">{t('notifications:push.subscribed')}</p>}
            {(push === 'not-subscribed' || push === 'unknown') && (
              <>
                <p id="push-off" className="mb-2">
                  {t('notifications:push.offHere')}
                </p>
                {failure && (
                  <p className="text-danger-emphasis small" role="alert" data-testid="push-failure">
                    {t(`notifications:push.failure.${failure}`)}
                    {failure === 'blocked' && <> {t('notifications:push.howToAllow')}</>}
                  </p>
                )}
                <button
                  type="button"
                  className="btn btn-primary btn-sm"
                  disabled={asking}
                  onClick={() => void enablePush()}
                >
                  {t('notifications:push.enable')}
                </button>
              </>
            )}
          </div>
          <ul className="settings-list">
            {types.map((type) =>
              pushOn ? (
                <SettingSwitch
                  key={type}
                  id={`push-${type}`}
                  inputName={`push-${type}`}
                  label={t(`notifications:type.${type}`)}
                  name={switchName(type, 'push')}
                  help={t(`notifications:help.${type}`)}
                  defaultChecked={loaderData.push[type]}
                />
              ) : (
                // No push on this device: the switch shows off (that is what the member gets here)
                // and the stored choice goes back unchanged.
                <SettingSwitch
                  key={type}
                  id={`push-${type}`}
                  label={t(`notifications:type.${type}`)}
                  name={switchName(type, 'push')}
                  help={t(`notifications:help.${type}`)}
                  checked={false}
                  disabled
                  describedBy="push-off"
                  {...(loaderData.push[type] ? { keep: `push-${type}` } : {})}
                />
              ),
            )}
          </ul>
        </section>
        <button type="submit" className="btn btn-primary" disabled={busy}>
          {t('notifications:save')}
        </button>
      </Form>
      <section className="settings-group mt-4" aria-labelledby="group-privacy" data-testid="privacy">
        <h2 className="settings-group-title" id="group-privacy">
          {t('notifications:privacy.heading')}
        </h2>
        <Form method="post">
          <input type="hidden" name="intent" value="public-profile" />
          <ul className="settings-list">
            <SettingSwitch
              id="public-profile"
              inputName="public_profile"
              label={t('notifications:privacy.publicProfile', { site: settings.name })}
              name={t('notifications:privacy.publicProfile', { site: settings.name })}
              help={t('notifications:privacy.publicProfileHelp')}
              defaultChecked={loaderData.public_profile}
            />
            <SettingSwitch
              id="browse-invisibly"
              inputName="browse_invisibly"
              label={t('notifications:privacy.browseInvisibly')}
              name={t('notifications:privacy.browseInvisibly')}
              help={t('notifications:privacy.browseInvisiblyHelp')}
              defaultChecked={loaderData.browse_invisibly}
              disabled={!user?.paid_user}
            />
          </ul>
          <button type="submit" className="btn btn-outline-primary" disabled={busy}>
            {t('notifications:privacy.save')}
          </button>
        </Form>
      </section>
      <section className="settings-group mt-4" aria-labelledby="group-data" data-testid="my-data">
        <h2 className="settings-group-title" id="group-data">
          {t('notifications:myData.heading')}
        </h2>
        <p>{t('notifications:myData.help')}</p>
        <a className="btn btn-outline-primary" href="/api/export.php" download="my-data.json">
          {t('notifications:myData.download')}
        </a>
      </section>
    </div>
  );
}
