import { Form, redirect, useNavigation } from 'react-router';
import { FormAlert, FormField } from '#app/components/forms/form-field.tsx';
import { formError, formText } from '#app/lib/actions.server.ts';
import { staffApi } from '#app/lib/staff-api.server.ts';
import { useTranslation } from '#app/lib/use-translation.ts';
import type { Route } from './+types/enrol';

export async function action({ context, request }: Route.ActionArgs) {
  const form = await request.formData();
  if (form.get('intent') === 'start') {
    const result = await staffApi(context.api)('POST /api/admin/totp.php');
    if (!result.ok) return formError(result);
    return { setup: result.data };
  }
  const code = formText(form, 'code').replace(/\s/g, '');
  const result = await staffApi(context.api)('PUT /api/admin/totp.php', { body: { code } });
  if (!result.ok) {
    return {
      setup: { secret: formText(form, 'secret'), otpauth_url: '', qr: formText(form, 'qr') },
      wrongCode: true,
    };
  }
  // The back office's start (/admin): the first-run wizard while no site exists, else the inbox.
  throw redirect('/admin');
}

/** Two-factor enrolment: scan the QR code (or type the key) into an authenticator app, then confirm a code. */
export default function Enrol({ actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const setup = actionData && 'setup' in actionData ? actionData.setup : null;
  const errors = actionData && 'errors' in actionData ? actionData.errors : undefined;
  return (
    <div className="mx-auto" style={{ maxWidth: 480 }}>
      <h1 className="h3 mb-3">{t('admin:enrol.heading')}</h1>
      <p>{t('admin:enrol.intro')}</p>
      <FormAlert errors={errors} />
      {!setup ? (
        <Form method="post">
          <button type="submit" name="intent" value="start" className="btn btn-primary">
            {t('admin:enrol.start')}
          </button>
        </Form>
      ) : (
        <>
          <ol>
            <li>{t('admin:enrol.scan')}</li>
            <li>{t('admin:enrol.confirm')}</li>
          </ol>
          <img
            src={setup.qr}
            alt={t('admin:enrol.qrAlt')}
            width={220}
            height={220}
            className="d-block mb-2 border"
          />
          <p className="small">
            {t('admin:enrol.key')} <code data-testid="totp-secret">{setup.secret}</code>
          </p>
          {actionData && 'wrongCode' in actionData && (
            <div className="alert alert-danger" role="alert">
              {t('admin:login.wrongCode')}
            </div>
          )}
          <Form method="post" noValidate>
            <input type="hidden" name="intent" value="confirm" />
            <input type="hidden" name="secret" value={setup.secret} />
            <input type="hidden" name="qr" value={setup.qr} />
            <FormField
              name="code"
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={6}
              required
              label={t('admin:login.code')}
            />
            <button type="submit" className="btn btn-primary" disabled={navigation.state === 'submitting'}>
              {t('admin:enrol.submit')}
            </button>
          </Form>
        </>
      )}
    </div>
  );
}
