import { useEffect, useState } from 'react';
import { Link, useFetcher } from 'react-router';
import { FormAlert, FormField } from '#app/components/forms/form-field.tsx';
import { dateExample, parseDateInput } from '#app/lib/date-input.ts';
import type { FormErrors } from '#app/lib/form-errors.ts';
import { useRootData } from '#app/lib/root-data.ts';
import { useTranslation } from '#app/lib/use-translation.ts';

/**
 * The signup form of the signup page and the signup modal: it posts to the /signup action, which
 * calls the API, sets the session and continues to complete-signup.
 */
export function SignupForm({
  onBusyChange,
  next,
  contact,
}: {
  onBusyChange?: (busy: boolean) => void;
  /** Where to go after signing up (a path on this site). */
  next?: string;
  /** Signing up from a member's landing page: the first message goes to that member. */
  contact?: { profile: number; name: string };
}) {
  const { t } = useTranslation();
  const { settings } = useRootData();
  const { locale } = useRootData();
  const fetcher = useFetcher<{ errors?: FormErrors }>();
  const busy = fetcher.state !== 'idle';
  // Empty required fields say "required" here, before the API can answer "too short".
  const [local, setLocal] = useState<FormErrors | undefined>(undefined);
  const errors = local ?? fetcher.data?.errors;
  useEffect(() => {
    if (fetcher.state === 'submitting') setLocal(undefined);
  }, [fetcher.state]);

  useEffect(() => {
    onBusyChange?.(busy);
  }, [busy, onBusyChange]);

  if (settings.signups === 'none') {
    return <div className="alert alert-info">{t('auth:signup.closed')}</div>;
  }

  return (
    <fetcher.Form
      method="post"
      action="/signup"
      noValidate
      aria-busy={busy}
      onSubmit={(event) => {
        const form = new FormData(event.currentTarget);
        const fields: Record<string, string> = {};
        for (const name of ['email', 'name', 'password', 'date_of_birth']) {
          if (String(form.get(name) ?? '').trim() === '') fields[name] = 'required';
        }
        const birth = String(form.get('date_of_birth') ?? '');
        if (!fields.date_of_birth && !parseDateInput(birth, locale)) fields.date_of_birth = 'invalid_date';
        if (Object.keys(fields).length === 0) return;
        event.preventDefault();
        setLocal({
          status: 422,
          body: { error: 'validation_failed', message: t('errors:field.invalid'), fields },
        });
        const first = Object.keys(fields)[0];
        event.currentTarget.querySelector<HTMLInputElement>(`[name="${first}"]`)?.focus();
      }}
    >
      {next && <input type="hidden" name="next" value={next} />}
      {contact && <input type="hidden" name="profile" value={contact.profile} />}
      <FormAlert errors={errors} />
      {contact && (
        <div className="mb-3">
          <label htmlFor="signup-message" className="form-label">
            {t('landers:member.message', { name: contact.name })}
          </label>
          <textarea
            id="signup-message"
            name="signup_message"
            className="form-control"
            rows={2}
            maxLength={1000}
            placeholder={t('landers:member.messagePlaceholder', { name: contact.name })}
          />
        </div>
      )}
      <FormField
        name="email"
        type="email"
        autoComplete="email"
        required
        label={t('auth:field.email')}
        errors={errors}
      />
      <FormField
        name="name"
        autoComplete="nickname"
        required
        minLength={2}
        maxLength={30}
        label={t('auth:field.name')}
        hint={t('auth:hint.name')}
        errors={errors}
      />
      <FormField
        name="password"
        type="password"
        autoComplete="new-password"
        required
        minLength={8}
        label={t('auth:field.password')}
        hint={t('auth:hint.password')}
        errors={errors}
      />
      <FormField
        name="date_of_birth"
        type="text"
        inputMode="numeric"
        required
        autoComplete="bday"
        placeholder={dateExample(locale)}
        label={t('auth:field.dateOfBirth')}
        hint={`${t('discover:signup.dateFormat', { example: dateExample(locale) })} ${t('auth:hint.dateOfBirth', { min_age: settings.min_age })}`}
        errors={errors}
      />
      <p className="small text-body-secondary">
        {t('auth:signup.terms', { min_age: settings.min_age })}{' '}
        <Link to="/pages/terms">{t('footer.terms')}</Link> ·{' '}
        <Link to="/pages/privacy">{t('footer.privacy')}</Link>
      </p>
      <div className="d-grid">
        <button type="submit" className="btn btn-primary btn-lg" disabled={busy}>
          {busy ? t('auth:signup.working') : t('auth:signup.submit')}
        </button>
      </div>
    </fetcher.Form>
  );
}
