import { Form, Link, redirect, useNavigation, useSearchParams } from 'react-router';
import { FormAlert, FormField } from '#app/components/forms/form-field.tsx';
import { PasskeyLogin } from '#app/components/passkey-login.tsx';
import { formError, formText, redirectWithCookies } from '#app/lib/actions.server.ts';
import { serverApi } from '#app/lib/api.ts';
import { pageMeta } from '#app/lib/meta.ts';
import { safeRedirectPath } from '#app/lib/safe-redirect.ts';
import { useTranslation } from '#app/lib/use-translation.ts';
import type { Route } from './+types/login';

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, 'page.login', { public: true });
}

export async function loader({ context, request }: Route.LoaderArgs) {
  const me = await serverApi(context.api)('GET /api/user.php');
  if (me.ok && me.data.user) {
    throw redirect(safeRedirectPath(new URL(request.url).searchParams.get('redirect'), '/members'));
  }
  return null;
}

export async function action({ context, request }: Route.ActionArgs) {
  const form = await request.formData();
  const credentials = { email: formText(form, 'email'), password: formText(form, 'password') };
  const keep = form.get('intent') === 'reactivate';
  const result = await context.api(keep ? '/api/reactivate.php' : '/api/user.php', {
    method: 'POST',
    body: credentials,
  });
  if (!result.ok) return formError(result);
  return redirectWithCookies(
    safeRedirectPath(form.get('redirect'), keep ? '/members?reactivated=1' : '/members'),
    result,
  );
}

export default function Login({ actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const navigation = useNavigation();
  const errors = actionData?.errors;
  const pendingDeletion = errors?.body.error === 'pending_deletion';
  return (
    <div className="container py-4" style={{ maxWidth: 480 }}>
      <h1 className="h3 mb-3">{t('auth:login.heading')}</h1>
      {params.get('session_ended') !== null && (
        <div
          className={`alert ${params.get('session_ended') === '1' ? 'alert-warning' : 'alert-info'}`}
          role="status"
        >
          {t(
            params.get('session_ended') === '1'
              ? 'security:login.sessionEnded'
              : 'security:login.sessionLinkInvalid',
          )}
        </div>
      )}
      {pendingDeletion ? (
        <div className="alert alert-warning" role="alert">
          {t('auth:login.pendingDeletion')}
        </div>
      ) : (
        <FormAlert errors={errors} />
      )}
      <Form method="post" noValidate>
        <input type="hidden" name="redirect" value={params.get('redirect') ?? ''} />
        <FormField
          name="email"
          type="email"
          autoComplete="email"
          required
          label={t('auth:field.email')}
          errors={errors}
        />
        <FormField
          name="password"
          type="password"
          autoComplete="current-password"
          required
          label={t('auth:field.password')}
          errors={errors}
        />
        <div className="d-grid gap-2">
          <button
            type="submit"
            name="intent"
            value={pendingDeletion ? 'reactivate' : 'login'}
            className="btn btn-primary btn-lg"
            disabled={navigation.state === 'submitting'}
          >
            {pendingDeletion ? t('auth:login.reactivate') : t('auth:login.submit')}
          </button>
        </div>
      </Form>
      <PasskeyLogin redirect={params.get('redirect')} />
      <p className="mt-3">
        <Link to="/reset-password">{t('auth:login.forgot')}</Link>
      </p>
      <p>
        {t('auth:login.noAccount')} <Link to="/signup">{t('auth:login.signupLink')}</Link>
      </p>
    </div>
  );
}
