import {
  createContext,
  type ReactNode,
  useCallback,
  useContext,
  useEffect,
  useId,
  useMemo,
  useState,
} from 'react';
import { Modal } from 'react-bootstrap';
import { useLocation } from 'react-router';
import { useShownOnce } from '#app/lib/use-shown-once.ts';
import { useTranslation } from '#app/lib/use-translation.ts';
import { SignupForm } from './signup-form.tsx';

type SignupModal = { open(): void };
const SignupModalContext = createContext<SignupModal | null>(null);

/** The signup modal where the layout offers one (default and empty layouts); null elsewhere. */
export function useSignupModal(): SignupModal | null {
  return useContext(SignupModalContext);
}

/**
 * A large modal without header or footer (spec §2). While a signup is in progress it cannot be closed
 * by the backdrop or Escape; it unlocks when the flow completes.
 */
export function SignupModalProvider({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const [show, setShow] = useState(false);
  const [locked, setLocked] = useState(false);
  const location = useLocation();
  const titleId = useId();

  // biome-ignore lint/correctness/useExhaustiveDependencies: a completed signup navigates; that closes the modal.
  useEffect(() => {
    setShow(false);
    setLocked(false);
  }, [location.pathname]);

  const open = useCallback(() => setShow(true), []);
  const value = useMemo(() => ({ open }), [open]);
  const close = () => {
    if (!locked) setShow(false);
  };
  const mounted = useShownOnce(show);

  return (
    <SignupModalContext.Provider value={value}>
      {children}
      {mounted && (
        <Modal
          show={show}
          onHide={close}
          size="lg"
          centered
          backdrop={locked ? 'static' : true}
          keyboard={!locked}
          aria-labelledby={titleId}
          data-testid="signup-modal"
        >
          <Modal.Body className="p-4">
            <div className="d-flex justify-content-between align-items-start mb-2">
              <h2 id={titleId} className="h4 mb-0">
                {t('auth:signup.heading')}
              </h2>
              <button
                type="button"
                className="btn-close"
                aria-label={t('close')}
                onClick={close}
                disabled={locked}
              />
            </div>
            <p className="text-body-secondary">{t('auth:signup.lead')}</p>
            <SignupForm onBusyChange={setLocked} />
          </Modal.Body>
        </Modal>
      )}
    </SignupModalContext.Provider>
  );
}
