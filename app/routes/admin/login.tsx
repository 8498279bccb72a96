import { Form, useNavigation } from 'react-router';
import { FormAlert, FormField } from '#app/components/forms/form-field.tsx';
import { StaffPasskeyLogin } from '#app/components/staff-passkey-login.tsx';
import { firstSignInStep } from '#app/layouts/admin-layout.tsx';
import { formError, formText, redirectWithCookies } from '#app/lib/actions.server.ts';
import { staffApi } from '#app/lib/staff-api.server.ts';
import { useTranslation } from '#app/lib/use-translation.ts';
import type { Route } from './+types/login';

export async function action({ context, request }: Route.ActionArgs) {
  const form = await request.formData();
  const otp = formText(form, 'otp').replace(/\s/g, '');
  const result = await staffApi(context.api)('POST /api/admin/session.php', {
    body: { email: formText(form, 'email'), password: formText(form, 'password'), ...(otp ? { otp } : {}) },
  });
  const error = result.ok ? undefined : result.code;
  if (error === 'otp_required') return { otpStep: true, wrongCode: otp !== '', codeUsed: false };
  // A right code that signed in already (a double submit): the code step again, with why.
  if (error === 'otp_used') return { otpStep: true, wrongCode: false, codeUsed: true };
  if (!result.ok) return formError(result);
  return redirectWithCookies(firstSignInStep(result.data.staff) ?? '/admin', result);
}

/** Staff sign-in: e-mail and password, then the code of the authenticator app once enrolled. */
export default function AdminLogin({ actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const otpStep = actionData !== undefined && 'otpStep' in actionData;
  const errors = actionData !== undefined && 'errors' in actionData ? actionData.errors : undefined;
  return (
    <div className="mx-auto" style={{ maxWidth: 420 }}>
      <h1 className="h3 mb-3">{t('admin:login.heading')}</h1>
      <FormAlert errors={errors} />
      {otpStep && actionData.wrongCode && (
        <div className="alert alert-danger" role="alert">
          {t('admin:login.wrongCode')}
        </div>
      )}
      {otpStep && actionData.codeUsed && (
        <div className="alert alert-warning" role="alert">
          {t('admin:login.codeUsed')}
        </div>
      )}
      <Form method="post" noValidate>
        <div hidden={otpStep}>
          <FormField
            name="email"
            type="email"
            autoComplete="username"
            required
            label={t('admin:login.email')}
            errors={errors}
          />
          <FormField
            name="password"
            type="password"
            autoComplete="current-password"
            required
            label={t('admin:login.password')}
            errors={errors}
          />
        </div>
        {otpStep && (
          <FormField
            name="otp"
            inputMode="numeric"
            autoComplete="one-time-code"
            pattern="[0-9]{6}"
            maxLength={6}
            required
            autoFocus
            label={t('admin:login.code')}
            hint={t('admin:login.codeHint')}
            errors={errors}
          />
        )}
        <div className="d-grid">
          <button type="submit" className="btn btn-primary" disabled={navigation.state === 'submitting'}>
            {otpStep ? t('admin:login.verify') : t('admin:login.submit')}
          </button>
        </div>
        {!otpStep && <StaffPasskeyLogin />}
      </Form>
    </div>
  );
}
