import { Form, Link, useNavigation } from 'react-router';
import { FormAlert, FormField } from '#app/components/forms/form-field.tsx';
import { formError, formText } from '#app/lib/actions.server.ts';
import { pageMeta } from '#app/lib/meta.ts';
import { useTranslation } from '#app/lib/use-translation.ts';
import type { Route } from './+types/reset-password';

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, 'page.resetPassword', { public: true });
}

export async function action({ context, request }: Route.ActionArgs) {
  const email = formText(await request.formData(), 'email');
  const result = await context.api('/api/password-reset.php', { method: 'POST', body: { email } });
  if (!result.ok) return formError(result);
  return { sentTo: email };
}

export default function ResetPassword({ actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const errors = actionData && 'errors' in actionData ? actionData.errors : undefined;
  const sentTo = actionData && 'sentTo' in actionData ? actionData.sentTo : undefined;
  return (
    <div className="container py-4" style={{ maxWidth: 480 }}>
      <h1 className="h3">{t('page.resetPassword')}</h1>
      {sentTo ? (
        <div className="alert alert-success" role="status">
          {t('auth:reset.sent', { email: sentTo })}
        </div>
      ) : (
        <>
          <p className="text-body-secondary">{t('auth:reset.lead')}</p>
          <FormAlert errors={errors} />
          <Form method="post" noValidate>
            <FormField
              name="email"
              type="email"
              autoComplete="email"
              required
              label={t('auth:field.email')}
              errors={errors}
            />
            <button type="submit" className="btn btn-primary" disabled={navigation.state === 'submitting'}>
              {t('auth:reset.submit')}
            </button>
          </Form>
        </>
      )}
      <p className="mt-3">
        <Link to="/login">{t('auth:reset.backToLogin')}</Link>
      </p>
    </div>
  );
}
