import { Form, useNavigation, useSearchParams } from 'react-router';
import { FormAlert, FormField } from '#app/components/forms/form-field.tsx';
import { formError, formText, redirectWithCookies } from '#app/lib/actions.server.ts';
import { pageMeta } from '#app/lib/meta.ts';
import { useTranslation } from '#app/lib/use-translation.ts';
import type { Route } from './+types/reset-password-do';

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, 'page.resetPasswordDo');
}

export async function action({ context, request }: Route.ActionArgs) {
  const form = await request.formData();
  const result = await context.api('/api/password-reset.php', {
    method: 'PUT',
    body: {
      token: formText(form, 'token'),
      password: formText(form, 'password'),
      password_confirmation: formText(form, 'password_confirmation'),
    },
  });
  if (!result.ok) return formError(result);
  return redirectWithCookies('/members?password_reset=1', result);
}

export default function ResetPasswordDo({ actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const navigation = useNavigation();
  const errors = actionData?.errors;
  return (
    <div className="container py-4" style={{ maxWidth: 480 }}>
      <h1 className="h3">{t('page.resetPasswordDo')}</h1>
      <p className="text-body-secondary">{t('auth:resetDo.lead')}</p>
      <FormAlert errors={errors} />
      <Form method="post" noValidate>
        <input type="hidden" name="token" value={params.get('token') ?? ''} />
        <FormField
          name="password"
          type="password"
          autoComplete="new-password"
          required
          minLength={8}
          label={t('auth:field.newPassword')}
          hint={t('auth:hint.password')}
          errors={errors}
        />
        <FormField
          name="password_confirmation"
          type="password"
          autoComplete="new-password"
          required
          label={t('auth:field.passwordConfirmation')}
          errors={errors}
        />
        <button type="submit" className="btn btn-primary" disabled={navigation.state === 'submitting'}>
          {t('auth:resetDo.submit')}
        </button>
      </Form>
    </div>
  );
}
