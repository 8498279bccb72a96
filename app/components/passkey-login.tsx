import { browserSupportsWebAuthn, startAuthentication } from '@simplewebauthn/browser';
import { useEffect, useState } from 'react';
import { KeyFill } from 'react-bootstrap-icons';
import { api } from '#app/lib/api.ts';
import { reportCaught } from '#app/lib/report-caught.ts';
import { safeRedirectPath } from '#app/lib/safe-redirect.ts';
import { useTranslation } from '#app/lib/use-translation.ts';
import { isCancelled } from './account-security.tsx';

/**
 * "Sign in with a passkey": the browser's passkey dialog instead of the password. The answer sets
 * the session cookie as a password sign-in does; the page then loads where the member was going.
 */
export function PasskeyLogin({ redirect }: { redirect: string | null }) {
  const { t } = useTranslation();
  const [supported, setSupported] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => setSupported(browserSupportsWebAuthn()), []);
  if (!supported) return null;

  const signIn = async () => {
    setBusy(true);
    setError(null);
    const options = await api('POST /api/passkey-login.php', { query: { step: 'options' }, body: {} });
    if (!options.ok || !('options' in options.data)) {
      setBusy(false);
      setError(options.ok ? '' : options.error.message);
      return;
    }
    let credential: Awaited<ReturnType<typeof startAuthentication>>;
    try {
      credential = await startAuthentication({ optionsJSON: options.data.options });
    } catch (caught) {
      if (!isCancelled(caught)) reportCaught('passkey.sign-in', caught);
      setBusy(false);
      return;
    }
    const answer = await api('POST /api/passkey-login.php', { body: { credential } });
    if (!answer.ok) {
      setBusy(false);
      setError(answer.error.message);
      return;
    }
    // A full load: every part of the page starts over with the new session.
    window.location.assign(safeRedirectPath(redirect, '/members'));
  };

  return (
    <div className="mt-3" data-testid="passkey-login">
      <div className="d-flex align-items-center gap-2 my-3 text-body-secondary small" aria-hidden="true">
        <hr className="flex-grow-1 my-0" />
        {t('security:login.or')}
        <hr className="flex-grow-1 my-0" />
      </div>
      {error !== null && (
        <div className="alert alert-danger" role="alert">
          {error || t('errors:passkey_failed')}
        </div>
      )}
      <div className="d-grid">
        <button
          type="button"
          className="btn btn-outline-primary btn-lg"
          onClick={() => void signIn()}
          disabled={busy}
        >
          <KeyFill aria-hidden="true" className="me-2" />
          {t('security:login.passkey')}
        </button>
      </div>
    </div>
  );
}
