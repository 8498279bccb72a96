import { BellFill, ChevronLeft, ChevronRight } from 'react-bootstrap-icons';
import { Form, Link, redirect, useNavigation } from 'react-router';
import { DevicesSection, memberPasskeys, PasskeysSection } from '#app/components/account-security.tsx';
import { FormAlert, FormField } from '#app/components/forms/form-field.tsx';
import { LanguageSwitcher } from '#app/components/language-switcher.tsx';
import { StandingSection } from '#app/components/member-standing.tsx';
import { cookieHeaders, formError, formText } from '#app/lib/actions.server.ts';
import { serverApi } from '#app/lib/api.ts';
import type { FormErrors } from '#app/lib/form-errors.ts';
import { pageMeta } from '#app/lib/meta.ts';
import { useTranslation } from '#app/lib/use-translation.ts';
import type { Route } from './+types/account-settings';

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, 'page.accountSettings');
}

type Intent =
  | 'unblock'
  | 'password'
  | 'email'
  | 'delete'
  | 'passkey-remove'
  | 'session-end'
  | 'session-end-others'
  | 'appeal';

export async function loader({ context }: Route.LoaderArgs) {
  const call = serverApi(context.api);
  const [blocked, sessions, passkeys, standing] = await Promise.all([
    call('GET /api/blocks.php'),
    call('GET /api/sessions.php'),
    call('GET /api/passkeys.php'),
    call('GET /api/standing.php'),
  ]);
  if (!blocked.ok) throw redirect('/login?redirect=%2Fprofile%2Faccount');
  return {
    blocked: blocked.data.profiles,
    sessions: sessions.ok ? sessions.data.sessions : [],
    passkeys: passkeys.ok ? passkeys.data.passkeys : [],
    standing: standing.ok ? standing.data : null,
  };
}

export async function action({ context, request }: Route.ActionArgs) {
  const form = await request.formData();
  const intent = formText(form, 'intent') as Intent;
  if (intent === 'unblock') {
    const result = await context.api('/api/block.php', {
      method: 'DELETE',
      body: { profile: Number(formText(form, 'profile')) },
    });
    return result.ok ? { intent, done: true } : { intent, ...(await formError(result)).data };
  }
  if (intent === 'passkey-remove' || intent === 'session-end' || intent === 'session-end-others') {
    const call = serverApi(context.api);
    const id = Number(formText(form, 'id'));
    const result =
      intent === 'passkey-remove'
        ? await call('DELETE /api/passkeys.php', { body: { id } })
        : await call('DELETE /api/sessions.php', {
            body: intent === 'session-end' ? { id } : { others: true },
          });
    return result.ok ? { intent, done: true } : { intent, ...(await formError(result)).data };
  }
  if (intent === 'appeal') {
    const result = await serverApi(context.api)('POST /api/appeal.php', {
      body: { strike: Number(formText(form, 'strike')), text: formText(form, 'text') },
    });
    return result.ok ? { intent, done: true } : { intent, ...(await formError(result)).data };
  }
  if (intent === 'password') {
    const result = await context.api('/api/password.php', {
      method: 'PUT',
      body: {
        old_password: formText(form, 'old_password'),
        password: formText(form, 'password'),
        password_confirmation: formText(form, 'password_confirmation'),
      },
    });
    return result.ok ? { intent, done: true } : { intent, ...(await formError(result)).data };
  }
  if (intent === 'email') {
    const email = formText(form, 'email');
    const result = await context.api('/api/mail-change.php', {
      method: 'POST',
      body: { email, password: formText(form, 'password') },
    });
    return result.ok ? { intent, done: true, email } : { intent, ...(await formError(result)).data };
  }
  const result = await context.api('/api/user.php', {
    method: 'DELETE',
    body: { password: formText(form, 'password') },
  });
  if (!result.ok) return { intent: 'delete' as const, ...(await formError(result)).data };
  throw redirect('/account-deleted', { headers: cookieHeaders(result) });
}

type ActionResult = { intent: Intent; done?: boolean; email?: string; errors?: FormErrors };

function Group({ id, title, children }: { id: string; title: string; children: React.ReactNode }) {
  return (
    <section className="settings-group" aria-labelledby={`${id}-title`} data-testid={id}>
      <h2 className="settings-group-title" id={`${id}-title`}>
        {title}
      </h2>
      <div className="surface p-3 p-sm-4">{children}</div>
    </section>
  );
}

/**
 * Account settings, apart from the profile: language, notifications, blocked members, password,
 * e-mail address and, last, deleting the account.
 */
export default function AccountSettings({ actionData, loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const result = actionData as ActionResult | undefined;
  const errorsFor = (intent: Intent) => (result?.intent === intent ? result.errors : undefined);
  const doneFor = (intent: Intent) => result?.intent === intent && result.done;
  const busy = navigation.state === 'submitting';
  return (
    <div className="container py-4 settings-page">
      <Link to="/profile" className="settings-back" data-testid="back-to-profile">
        <ChevronLeft aria-hidden="true" />
        {t('nav.profile')}
      </Link>
      <h1 className="h3 mb-4">{t('page.accountSettings')}</h1>

      <Group id="account-language" title={t('auth:language.heading')}>
        <LanguageSwitcher />
      </Group>

      <section className="settings-group" aria-label={t('nav.notifications')}>
        <ul className="settings-list">
          <li>
            <Link to="/notifications" className="settings-link">
              <BellFill aria-hidden="true" className="text-primary flex-shrink-0" />
              <span className="setting-text">
                <span className="setting-label">{t('nav.notifications')}</span>
                <span className="setting-help">{t('notifications:lead')}</span>
              </span>
              <ChevronRight aria-hidden="true" className="flex-shrink-0 text-body-secondary" />
            </Link>
          </li>
        </ul>
      </section>

      <Group id="account-blocks" title={t('profile:blocks.heading')}>
        {loaderData.blocked.length === 0 ? (
          <p className="mb-0 text-body-secondary">{t('profile:blocks.none')}</p>
        ) : (
          <ul className="list-group list-group-flush" data-testid="blocked-list">
            {loaderData.blocked.map((member) => (
              <li
                key={member.id}
                className="list-group-item px-0 d-flex justify-content-between align-items-center"
              >
                <span>{member.name}</span>
                <Form method="post">
                  <input type="hidden" name="intent" value="unblock" />
                  <input type="hidden" name="profile" value={member.id} />
                  <button type="submit" className="btn btn-sm btn-outline-secondary" disabled={busy}>
                    {t('profile:member.unblock')}
                  </button>
                </Form>
              </li>
            ))}
          </ul>
        )}
      </Group>

      <Group id="account-password" title={t('auth:password.heading')}>
        {doneFor('password') && (
          <div className="alert alert-success" role="status">
            {t('auth:password.done')}
          </div>
        )}
        <FormAlert errors={errorsFor('password')} />
        <Form method="post" noValidate>
          <input type="hidden" name="intent" value="password" />
          <FormField
            name="old_password"
            type="password"
            autoComplete="current-password"
            required
            label={t('auth:field.oldPassword')}
            errors={errorsFor('password')}
          />
          <FormField
            name="password"
            type="password"
            autoComplete="new-password"
            required
            label={t('auth:field.newPassword')}
            hint={t('auth:hint.password')}
            errors={errorsFor('password')}
          />
          <FormField
            name="password_confirmation"
            type="password"
            autoComplete="new-password"
            required
            label={t('auth:field.passwordConfirmation')}
            errors={errorsFor('password')}
          />
          <button type="submit" className="btn btn-primary" disabled={busy}>
            {t('auth:password.submit')}
          </button>
        </Form>
      </Group>

      <Group id="account-email" title={t('auth:mailChange.heading')}>
        {doneFor('email') && (
          <div className="alert alert-success" role="status">
            {t('auth:mailChange.sent', { email: result?.email })}
          </div>
        )}
        <FormAlert errors={errorsFor('email')} />
        <Form method="post" noValidate>
          <input type="hidden" name="intent" value="email" />
          <FormField
            name="email"
            type="email"
            autoComplete="email"
            required
            label={t('auth:field.newEmail')}
            errors={errorsFor('email')}
          />
          <FormField
            name="password"
            type="password"
            autoComplete="current-password"
            required
            label={t('auth:field.password')}
            errors={errorsFor('email')}
          />
          <button type="submit" className="btn btn-primary" disabled={busy}>
            {t('auth:mailChange.submit')}
          </button>
        </Form>
      </Group>

      <Group id="account-passkeys" title={t('security:passkeys.heading')}>
        <FormAlert errors={errorsFor('passkey-remove')} />
        {doneFor('passkey-remove') && (
          <div className="alert alert-success" role="status">
            {t('security:passkeys.removed')}
          </div>
        )}
        <PasskeysSection
          passkeys={loaderData.passkeys}
          lead={t('security:passkeys.lead')}
          registration={memberPasskeys}
        />
      </Group>

      <Group id="account-devices" title={t('security:devices.heading')}>
        <FormAlert errors={errorsFor('session-end') ?? errorsFor('session-end-others')} />
        <DevicesSection
          sessions={loaderData.sessions}
          ended={doneFor('session-end') ? 'one' : doneFor('session-end-others') ? 'others' : undefined}
        />
      </Group>

      {loaderData.standing && (
        <Group id="account-standing" title={t('security:standing.heading')}>
          <StandingSection
            standing={loaderData.standing}
            appealed={Boolean(doneFor('appeal'))}
            errors={errorsFor('appeal')}
            busy={busy}
          />
        </Group>
      )}

      <Group id="account-delete" title={t('auth:delete.heading')}>
        <p>{t('auth:delete.lead')}</p>
        <FormAlert errors={errorsFor('delete')} />
        <Form method="post" noValidate>
          <input type="hidden" name="intent" value="delete" />
          <FormField
            name="password"
            type="password"
            autoComplete="current-password"
            required
            label={t('auth:delete.confirm')}
            errors={errorsFor('delete')}
          />
          <button type="submit" className="btn btn-outline-danger" disabled={busy}>
            {t('auth:delete.submit')}
          </button>
        </Form>
      </Group>
    </div>
  );
}
