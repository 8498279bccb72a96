import { useEffect, useState } from 'react';
import { Modal } from 'react-bootstrap';
import { useSearchParams } from 'react-router';
import { ApiError, apiFetch } from '#app/lib/api-client.ts';
import { useTranslation } from '#app/lib/use-translation.ts';
import { useSession } from '#app/state/session.tsx';

function useSmartphone(): boolean {
  const [phone, setPhone] = useState(false);
  useEffect(() => {
    setPhone(window.matchMedia('(max-width: 767.98px) and (pointer: coarse)').matches);
  }, []);
  return phone;
}

/**
 * A member who has not confirmed the e-mail address and whose profile is therefore hidden is
 * reminded (spec §4): a modal right after signup on a smartphone (?api_signup_complete), else an alert.
 */
export function ActivationReminder() {
  const { t } = useTranslation();
  const { user } = useSession();
  const [params] = useSearchParams();
  const smartphone = useSmartphone();
  const [modalClosed, setModalClosed] = useState(false);
  const [state, setState] = useState<'idle' | 'sending' | 'sent' | { error: string }>('idle');
  if (user?.status !== 'not_confirmed' || user.profile.status !== 'disabled') return null;

  const resend = async () => {
    setState('sending');
    try {
      await apiFetch('/api/activation-mail.php', { method: 'POST', body: {} });
      setState('sent');
    } catch (error) {
      setState({ error: error instanceof ApiError ? error.message : t('errors:internal_error') });
    }
  };

  const content = (
    <>
      <p className="mb-2">{t('alert.activation', { email: user.email })}</p>
      {state === 'sent' ? (
        <p className="mb-0 fw-semibold">{t('auth:activate.resent', { email: user.email })}</p>
      ) : (
        <button
          type="button"
          className="btn btn-sm btn-outline-dark"
          onClick={() => void resend()}
          disabled={state === 'sending'}
        >
          {t('alert.activationResend')}
        </button>
      )}
      {typeof state === 'object' && (
        <p className="text-danger mb-0 mt-2" role="alert">
          {state.error}
        </p>
      )}
    </>
  );

  if (smartphone && params.has('api_signup_complete') && !modalClosed) {
    return (
      <Modal show onHide={() => setModalClosed(true)} centered data-testid="activation-modal">
        <Modal.Body className="p-4">
          {content}
          <button type="button" className="btn btn-primary w-100 mt-3" onClick={() => setModalClosed(true)}>
            {t('close')}
          </button>
        </Modal.Body>
      </Modal>
    );
  }
  return (
    <div className="alert alert-warning mb-2" role="status" data-testid="activation-alert">
      {content}
    </div>
  );
}
