import { browserSupportsWebAuthn, startAuthentication } from '@simplewebauthn/browser';
import { useEffect, useState } from 'react';
import { KeyFill } from 'react-bootstrap-icons';
import { ApiError, apiFetch } from '#app/lib/api-client.ts';
import { reportCaught } from '#app/lib/report-caught.ts';
import { useTranslation } from '#app/lib/use-translation.ts';
import { requestOptionsResponseSchema } from '#contract/security.ts';
import { isCancelled } from './account-security.tsx';

/**
 * Staff sign-in with the e-mail and password of the form around it and a passkey in place of the
 * authenticator app's code (/api/admin/passkey-login.php).
 */
export function StaffPasskeyLogin() {
  const { t } = useTranslation();
  const [supported, setSupported] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => setSupported(browserSupportsWebAuthn()), []);
  if (!supported) return null;

  const signIn = async (form: HTMLFormElement | null) => {
    const fields = new FormData(form ?? undefined);
    const email = String(fields.get('email') ?? '');
    const password = String(fields.get('password') ?? '');
    setBusy(true);
    setError(null);
    try {
      const { options } = requestOptionsResponseSchema.parse(
        await apiFetch<unknown>('/api/admin/passkey-login.php?step=options', { method: 'POST', body: {} }),
      );
      const credential = await startAuthentication({ optionsJSON: options });
      await apiFetch<unknown>('/api/admin/passkey-login.php', {
        method: 'POST',
        body: { email, password, credential },
      });
      window.location.assign('/admin/inbox');
    } catch (caught) {
      setBusy(false);
      if (caught instanceof ApiError) setError(caught.body.message);
      else if (!isCancelled(caught)) reportCaught('staff.passkey-sign-in', caught);
    }
  };

  return (
    <>
      {error !== null && (
        <div className="alert alert-danger mt-3" role="alert">
          {error}
        </div>
      )}
      <div className="d-grid mt-2">
        <button
          type="button"
          className="btn btn-outline-primary"
          disabled={busy}
          onClick={(event) => void signIn(event.currentTarget.form)}
        >
          <KeyFill aria-hidden="true" className="me-2" />
          {t('security:staff.loginWithPasskey')}
        </button>
      </div>
    </>
  );
}
