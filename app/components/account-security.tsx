import { browserSupportsWebAuthn, startRegistration } from '@simplewebauthn/browser';
import { useEffect, useState } from 'react';
import { KeyFill, Laptop, Phone } from 'react-bootstrap-icons';
import { Form, useRevalidator } from 'react-router';
import { api } from '#app/lib/api.ts';
import { countryName } from '#app/lib/countries.ts';
import { useDates } from '#app/lib/format.ts';
import { reportCaught } from '#app/lib/report-caught.ts';
import { useRootData } from '#app/lib/root-data.ts';
import { useTranslation } from '#app/lib/use-translation.ts';
import type { DeviceSession, Passkey } from '#contract/security.ts';

/** "Chrome · Windows", or null when the User-Agent named neither. */
export function deviceName(device: DeviceSession['device']): string | null {
  const parts = [device.browser, device.os].filter((part): part is string => part !== null);
  return parts.length > 0 ? parts.join(' · ') : null;
}

/** The WebAuthn refusals a person causes (cancelled, timed out, an authenticator already used): no error. */
export function isCancelled(error: unknown): boolean {
  return error instanceof Error && (error.name === 'NotAllowedError' || error.name === 'AbortError');
}

type Registration = {
  /** The options call and the registering call of the member's or the staff member's passkeys. */
  register: (
    credential: Awaited<ReturnType<typeof startRegistration>>,
  ) => Promise<{ ok: boolean; message?: string | undefined }>;
  options: () => Promise<Parameters<typeof startRegistration>[0]['optionsJSON'] | { message: string }>;
};

/** The member's passkeys: add one with the browser's passkey dialog, list and remove them. */
export function PasskeysSection({
  passkeys,
  lead,
  registration,
  removeIntent = 'passkey-remove',
}: {
  passkeys: Passkey[];
  lead: string;
  registration: Registration;
  removeIntent?: string;
}) {
  const { t } = useTranslation();
  const dates = useDates();
  const revalidator = useRevalidator();
  const [state, setState] = useState<{ busy: boolean; note?: 'added' | 'cancelled'; error?: string }>({
    busy: false,
  });
  // Known only in the browser: the server renders the button, the browser may take it away.
  const [supported, setSupported] = useState(true);
  useEffect(() => setSupported(browserSupportsWebAuthn()), []);

  const add = async () => {
    setState({ busy: true });
    const options = await registration.options();
    if ('message' in options) {
      setState({ busy: false, error: options.message });
      return;
    }
    let credential: Awaited<ReturnType<typeof startRegistration>>;
    try {
      credential = await startRegistration({ optionsJSON: options });
    } catch (error) {
      if (!isCancelled(error)) reportCaught('passkey.create', error);
      setState({ busy: false, note: 'cancelled' });
      return;
    }
    const saved = await registration.register(credential);
    setState(saved.ok ? { busy: false, note: 'added' } : { busy: false, error: saved.message ?? '' });
    if (saved.ok) await revalidator.revalidate();
  };

  return (
    <div data-testid="passkeys">
      <p className="text-body-secondary">{lead}</p>
      {state.note === 'added' && (
        <div className="alert alert-success" role="status">
          {t('security:passkeys.added')}
        </div>
      )}
      {state.note === 'cancelled' && (
        <div className="alert alert-info" role="status">
          {t('security:passkeys.cancelled')}
        </div>
      )}
      {state.error && (
        <div className="alert alert-danger" role="alert">
          {state.error}
        </div>
      )}
      {passkeys.length === 0 ? (
        <p className="text-body-secondary small">{t('security:passkeys.none')}</p>
      ) : (
        <ul className="list-group list-group-flush mb-3" data-testid="passkey-list">
          {passkeys.map((passkey) => (
            <li key={passkey.id} className="list-group-item px-0 d-flex gap-3 align-items-center">
              <KeyFill aria-hidden="true" className="text-primary flex-shrink-0" />
              <div className="me-auto min-w-0">
                <div className="fw-semibold text-truncate">{passkey.name}</div>
                <div className="small text-body-secondary">
                  {t('security:passkeys.added_on', { date: dates.date(passkey.created_at) })}
                  {passkey.last_used_at &&
                    ` · ${t('security:passkeys.lastUsed', { date: dates.date(passkey.last_used_at) })}`}
                </div>
              </div>
              <Form method="post" className="flex-shrink-0">
                <input type="hidden" name="intent" value={removeIntent} />
                <input type="hidden" name="id" value={passkey.id} />
                <button
                  type="submit"
                  className="btn btn-sm btn-outline-secondary text-nowrap"
                  aria-label={t('security:passkeys.removeName', { name: passkey.name })}
                >
                  {t('security:passkeys.remove')}
                </button>
              </Form>
            </li>
          ))}
        </ul>
      )}
      {supported ? (
        <button
          type="button"
          className="btn btn-outline-primary"
          onClick={() => void add()}
          disabled={state.busy}
          data-testid="add-passkey"
        >
          <KeyFill aria-hidden="true" className="me-2" />
          {t('security:passkeys.add')}
        </button>
      ) : (
        <p className="small text-body-secondary mb-0">{t('security:passkeys.unsupported')}</p>
      )}
    </div>
  );
}

/** The member's passkeys, through the member API. */
export const memberPasskeys: Registration = {
  async options() {
    const answer = await api('POST /api/passkeys.php', { query: { step: 'options' }, body: {} });
    if (!answer.ok) return { message: answer.error.message };
    return 'options' in answer.data ? answer.data.options : { message: '' };
  },
  async register(credential) {
    const answer = await api('POST /api/passkeys.php', { body: { credential } });
    return answer.ok ? { ok: true } : { ok: false, message: answer.error.message };
  },
};

/** Signed-in devices: each with where and when, the current one marked; any other can be signed out. */
export function DevicesSection({
  sessions,
  endIntent = 'session-end',
  ended,
  allowOthers = true,
  lead,
}: {
  sessions: DeviceSession[];
  endIntent?: string;
  /** The line above the list; by default it speaks of the reader's own account. */
  lead?: string;
  ended?: 'one' | 'others' | undefined;
  /** The members' list signs out every other device at once; the staff list ends one at a time. */
  allowOthers?: boolean;
}) {
  const { t } = useTranslation();
  const dates = useDates();
  const locale = useRootData().locale;
  const when = (value: string) => dates.date(value, { dateStyle: 'medium', timeStyle: 'short' });
  return (
    <div data-testid="devices">
      <p className="text-body-secondary">{lead ?? t('security:devices.lead')}</p>
      {ended && (
        <div className="alert alert-success" role="status">
          {t(ended === 'one' ? 'security:devices.ended' : 'security:devices.othersEnded')}
        </div>
      )}
      <ul className="list-group list-group-flush mb-3" data-testid="device-list">
        {sessions.map((session) => {
          const name = deviceName(session.device) ?? t('security:devices.unknown');
          const mobile = session.device.os === 'Android' || session.device.os === 'iOS';
          const Icon = mobile ? Phone : Laptop;
          return (
            <li key={session.id} className="list-group-item px-0 d-flex gap-3 align-items-center">
              <Icon aria-hidden="true" className="text-primary flex-shrink-0" size={20} />
              <div className="me-auto min-w-0">
                <div className="fw-semibold">
                  {name}
                  {session.current && (
                    <span className="badge text-bg-success ms-2">{t('security:devices.current')}</span>
                  )}
                </div>
                <div className="small text-body-secondary">
                  {session.place ? countryName(session.place, locale) : t('security:devices.unknownPlace')}
                  {' · '}
                  {t('security:devices.since', { date: when(session.created_at) })}
                  {' · '}
                  {t('security:devices.lastUsed', { date: when(session.last_used_at) })}
                </div>
              </div>
              {!session.current && (
                <Form method="post" className="flex-shrink-0">
                  <input type="hidden" name="intent" value={endIntent} />
                  <input type="hidden" name="id" value={session.id} />
                  <button
                    type="submit"
                    className="btn btn-sm btn-outline-danger text-nowrap"
                    aria-label={t('security:devices.endName', { device: name })}
                  >
                    {t('security:devices.end')}
                  </button>
                </Form>
              )}
            </li>
          );
        })}
      </ul>
      {allowOthers && sessions.some((session) => !session.current) && (
        <Form method="post">
          <input type="hidden" name="intent" value={`${endIntent}-others`} />
          <button type="submit" className="btn btn-outline-danger" data-testid="end-other-sessions">
            {t('security:devices.endOthers')}
          </button>
        </Form>
      )}
    </div>
  );
}
