import { EyeFill } from 'react-bootstrap-icons';
import { Form, Link, redirect, useNavigation } from 'react-router';
import { FormAlert, FormField } from '#app/components/forms/form-field.tsx';
import { LanguageSwitcher } from '#app/components/language-switcher.tsx';
import { PhotoManager } from '#app/components/photo-manager.tsx';
import { ProfileEditor } from '#app/components/profile-editor.tsx';
import { cookieHeaders, formError, formText } from '#app/lib/actions.server.ts';
import { serverApi } from '#app/lib/api.ts';
import type { FormErrors } from '#app/lib/form-errors.ts';
import { pageMeta } from '#app/lib/meta.ts';
import { useTranslation } from '#app/lib/use-translation.ts';
import type { Route } from './+types/profile';

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, 'page.profile');
}

type Intent = 'profile' | 'unblock' | 'password' | 'email' | 'delete';

export async function loader({ context }: Route.LoaderArgs) {
  const api = serverApi(context.api);
  const own = await api('GET /api/profile.php');
  if (!own.ok) throw redirect('/login?redirect=%2Fprofile');
  const [regions, blocked] = await Promise.all([
    api('GET /api/regions.php', { query: { country: own.data.profile.country } }),
    api('GET /api/blocks.php'),
  ]);
  return {
    profile: own.data.profile,
    regions: regions.ok ? regions.data.regions : [],
    blocked: blocked.ok ? blocked.data.profiles : [],
  };
}

const nullable = (value: string) => (value === '' ? null : value);

export async function action({ context, request }: Route.ActionArgs) {
  const form = await request.formData();
  const intent = formText(form, 'intent') as Intent;
  if (intent === 'profile') {
    const gender = formText(form, 'gender');
    const seeking = formText(form, 'seeking');
    const result = await context.api('/api/profile.php', {
      method: 'PUT',
      body: {
        name: formText(form, 'name'),
        ...(gender ? { gender } : {}),
        ...(seeking ? { seeking } : {}),
        body_type: nullable(formText(form, 'body_type')),
        hair: nullable(formText(form, 'hair')),
        eye_colour: nullable(formText(form, 'eye_colour')),
        relationship_status: nullable(formText(form, 'relationship_status')),
        tattoos: nullable(formText(form, 'tattoos')),
        interests: form.getAll('interests').filter((value): value is string => typeof value === 'string'),
        about: nullable(formText(form, 'about')),
        country: formText(form, 'country'),
        countryregion: nullable(formText(form, 'countryregion')),
      },
    });
    return result.ok ? { intent, done: true } : { intent, ...(await formError(result)).data };
  }
  if (intent === 'unblock') {
    const result = await context.api('/api/block.php', {
      method: 'DELETE',
      body: { profile: Number(formText(form, 'profile')) },
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

function Section({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <section className="card mb-4">
      <div className="card-body">
        <h2 className="h5 card-title">{title}</h2>
        {children}
      </div>
    </section>
  );
}

/** Profile settings; the account part: language, password, e-mail address, deletion. */
export default function Profile({ actionData, loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const result = actionData as ActionResult | undefined;
  const errorsFor = (intent: Intent) => (result?.intent === intent ? result.errors : undefined);
  const doneFor = (intent: Intent) => result?.intent === intent && result.done;
  const busy = navigation.state === 'submitting';
  return (
    <div className="container py-4" style={{ maxWidth: 640 }}>
      <div className="d-flex align-items-center justify-content-between gap-2 mb-3">
        <h1 className="h3 mb-0">{t('page.profile')}</h1>
        <Link
          to={`/members/${loaderData.profile.id}`}
          className="btn btn-outline-primary btn-sm"
          data-testid="profile-preview"
        >
          <EyeFill aria-hidden="true" className="me-1" />
          {t('discover:editor.preview')}
        </Link>
      </div>

      <PhotoManager profile={loaderData.profile} />
      <ProfileEditor
        profile={loaderData.profile}
        regions={loaderData.regions}
        errors={errorsFor('profile')}
        saved={Boolean(doneFor('profile'))}
      />

      <Section title={t('profile:blocks.heading')}>
        {loaderData.blocked.length === 0 ? (
          <p className="mb-0 text-body-secondary">{t('profile:blocks.none')}</p>
        ) : (
          <ul className="list-group" data-testid="blocked-list">
            {loaderData.blocked.map((member) => (
              <li
                key={member.id}
                className="list-group-item d-flex justify-content-between align-items-center"
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
      </Section>

      <Section title={t('auth:language.heading')}>
        <LanguageSwitcher />
      </Section>

      <Section title={t('auth:password.heading')}>
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
      </Section>

      <Section title={t('auth:mailChange.heading')}>
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
      </Section>

      <Section title={t('auth:delete.heading')}>
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
      </Section>
    </div>
  );
}
