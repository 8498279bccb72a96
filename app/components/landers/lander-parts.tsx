import type { ReactNode } from 'react';
import { footerLinks } from '#app/components/site-footer.tsx';
import { errorParams, type FormErrors, fieldError, fieldErrorKey } from '#app/lib/form-errors.ts';
import type { LanderSignupResult } from '#app/lib/lander-signup.server.ts';
import { useRootData } from '#app/lib/root-data.ts';
import { siteEntrySkipCookie, siteEntrySkipDays } from '#app/lib/shell-rules.ts';
import { useTranslation } from '#app/lib/use-translation.ts';
import type { Profile } from '#contract/profiles.ts';
import { inlineCall, pageIsland } from './islands.ts';

/** A profile photo: the hero one loads first (eager, high priority), the others lazily. */
export function ProfilePhoto({
  profile,
  size = 'thumb',
  hero = false,
  width,
  height,
  className,
  alt = '',
}: {
  profile: Profile;
  size?: 'thumb' | 'main';
  hero?: boolean;
  width: number;
  height: number;
  className?: string;
  alt?: string;
}) {
  if (!profile.main_image) return null;
  const src = size === 'main' ? profile.main_image.filename : profile.main_image.thumb_filename;
  // React preloads an eager high-priority image in the <head> by itself.
  return (
    <img
      src={src}
      alt={alt}
      width={width}
      height={height}
      className={className}
      loading={hero ? 'eager' : 'lazy'}
      decoding={hero ? 'sync' : 'async'}
      {...(hero ? { fetchPriority: 'high' as const } : {})}
    />
  );
}

export function useAgeLabel() {
  const { t } = useTranslation();
  return (profile: Profile) => t('profile:card.age', { name: profile.name, age: profile.age });
}

/** An inline script with the page's CSP nonce. */
export function InlineScript({ nonce, code }: { nonce: string; code: string }) {
  // biome-ignore lint/security/noDangerouslySetInnerHtml: our own function's source, arguments JSON-escaped.
  return <script nonce={nonce} dangerouslySetInnerHTML={{ __html: code }} />;
}

/** The lander frame of spec §2: a logo bar and a short legal footer, and the 18+ notice where due. */
export function LanderFrame({
  children,
  tone,
  name,
  nonce,
  entryGate,
  extraScript,
}: {
  children: ReactNode;
  tone: 'light' | 'dark';
  name: string;
  nonce: string;
  entryGate: boolean;
  extraScript?: string;
}) {
  const { t } = useTranslation();
  const { settings } = useRootData();
  return (
    <div className={`lander lander--${name} lander--${tone}`} data-lander={name}>
      <a href="#main" className="lander-skip">
        {t('nav.skipToContent')}
      </a>
      <header className="lander-bar">
        <a href="/" className="lander-logo">
          <span aria-hidden="true" className="lander-logo-mark">
            ♥
          </span>
          {settings.name}
        </a>
        <a href="/login" className="lander-login">
          {t('auth:signup.loginLink')}
        </a>
      </header>
      <main id="main">{children}</main>
      <footer className="lander-footer">
        <nav aria-label={t('footer.legal')}>
          <ul>
            {footerLinks.map((link) => (
              <li key={link.to}>
                <a href={link.to}>{t(link.key)}</a>
              </li>
            ))}
          </ul>
        </nav>
        <p>{t('landers:footer.fictional', { site: settings.name })}</p>
      </footer>
      {entryGate && <EntryGate />}
      <InlineScript
        nonce={nonce}
        code={inlineCall(pageIsland, siteEntrySkipCookie, siteEntrySkipDays * 86400)}
      />
      {extraScript && <InlineScript nonce={nonce} code={extraScript} />}
    </div>
  );
}

/** The 18+ notice without JavaScript: its button posts to the page, which sets the skip cookie. */
function EntryGate() {
  const { t } = useTranslation();
  const { settings } = useRootData();
  return (
    <div className="lander-gate" data-entry-gate="" data-testid="site-entry-warning">
      <div className="lander-gate-box" role="dialog" aria-modal="true" aria-labelledby="gate-title">
        <p className="lander-gate-age" aria-hidden="true">
          {settings.min_age}+
        </p>
        <h2 id="gate-title">{t('siteEntry.title')}</h2>
        <p>{t('siteEntry.body', { site: settings.name, min_age: settings.min_age })}</p>
        <form method="post">
          <input type="hidden" name="intent" value="enter" />
          <button type="submit" className="lander-btn lander-btn--primary lander-btn--block">
            {t('siteEntry.enter', { min_age: settings.min_age })}
          </button>
        </form>
        <a className="lander-gate-leave" href="https://www.google.com/" rel="noreferrer">
          {t('siteEntry.leave')}
        </a>
      </div>
    </div>
  );
}

function FieldError({
  id,
  code,
  errors,
}: {
  id: string;
  code: string | undefined;
  errors: FormErrors | undefined;
}) {
  const { t } = useTranslation();
  if (!code) return null;
  return (
    <p id={id} className="lsu-error">
      {t(fieldErrorKey(code), { defaultValue: t('errors:field.invalid'), ...errorParams(errors) })}
    </p>
  );
}

function TextField({
  name,
  label,
  hint,
  errors,
  ...input
}: {
  name: string;
  label: string;
  hint?: string;
  errors: FormErrors | undefined;
} & React.InputHTMLAttributes<HTMLInputElement>) {
  const code = fieldError(errors, name);
  const id = `lsu-${name}`;
  const describedBy = [hint ? `${id}-hint` : null, code ? `${id}-error` : null].filter(Boolean).join(' ');
  return (
    <div className="lsu-field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        name={name}
        aria-invalid={code ? true : undefined}
        aria-describedby={describedBy || undefined}
        {...input}
      />
      <FieldError id={`${id}-error`} code={code} errors={errors} />
      {hint && (
        <p id={`${id}-hint`} className="lsu-hint">
          {hint}
        </p>
      )}
    </div>
  );
}

function Choice({
  name,
  options,
  legend,
  checked,
  errors,
}: {
  name: 'gender' | 'seeking';
  options: { value: string; label: string; icon: string }[];
  legend: string;
  checked: string | undefined;
  errors: FormErrors | undefined;
}) {
  const code = fieldError(errors, name);
  return (
    <fieldset className="lsu-choice" aria-describedby={code ? `lsu-${name}-error` : undefined}>
      <legend>{legend}</legend>
      <div className="lsu-chips">
        {options.map((option) => (
          <label key={option.value} className="lsu-chip">
            <input type="radio" name={name} value={option.value} defaultChecked={checked === option.value} />
            <span aria-hidden="true" className="lsu-chip-icon">
              {option.icon}
            </span>
            {option.label}
          </label>
        ))}
      </div>
      <FieldError id={`lsu-${name}-error`} code={code} errors={errors} />
    </fieldset>
  );
}

/** The latest date of birth that is old enough, as YYYY-MM-DD (the date field's max). */
export function latestBirthdate(minAge: number, today = new Date()): string {
  const date = new Date(Date.UTC(today.getUTCFullYear() - minAge, today.getUTCMonth(), today.getUTCDate()));
  return date.toISOString().slice(0, 10);
}

/**
 * The two-step signup of every lander: step one, who you are and whom you seek (one tap each);
 * step two, e-mail, password, date of birth and an optional name with a suggestion. Plain HTML:
 * it posts to the page's action, whose errors come back inline in the visitor's language.
 */
export function LanderSignup({
  result,
  suggestion,
  heading,
  lead,
  contact,
  id = 'signup',
}: {
  result: LanderSignupResult | undefined;
  suggestion: string;
  heading: string;
  lead?: string;
  contact?: { name: string };
  id?: string;
}) {
  const { t } = useTranslation();
  const { settings } = useRootData();
  const errors = result?.errors;
  const values = result?.values;
  const general = errors && !errors.body.fields ? errors.body.message : undefined;
  if (settings.signups === 'none') {
    return (
      <section id={id} className="lsu">
        <p className="lsu-closed">{t('auth:signup.closed')}</p>
      </section>
    );
  }
  return (
    <section id={id} className="lsu" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="lsu-title" data-match-title="">
        {heading}
      </h2>
      {lead && <p className="lsu-lead">{lead}</p>}
      <form method="post" className="lsu-form" data-lander-signup="" noValidate>
        <input type="hidden" name="intent" value="signup" />
        <input type="hidden" name="name_suggestion" value={suggestion} />
        {general && (
          <p className="lsu-alert" role="alert">
            {general}
          </p>
        )}
        <div className="lsu-step">
          <p className="lsu-stepno">{t('landers:signup.step', { step: 1, steps: 2 })}</p>
          <Choice
            name="gender"
            legend={t('auth:completeSignup.gender')}
            checked={values?.gender}
            errors={errors}
            options={[
              { value: 'male', label: t('auth:gender.male'), icon: '♂' },
              { value: 'female', label: t('auth:gender.female'), icon: '♀' },
            ]}
          />
          <Choice
            name="seeking"
            legend={t('auth:completeSignup.seeking')}
            checked={values?.seeking}
            errors={errors}
            options={[
              { value: 'female', label: t('auth:seeking.female'), icon: '♀' },
              { value: 'male', label: t('auth:seeking.male'), icon: '♂' },
              { value: 'both', label: t('auth:seeking.both'), icon: '⚥' },
            ]}
          />
        </div>
        <div className="lsu-step lsu-step-two" data-step-two="">
          <p className="lsu-stepno">{t('landers:signup.step', { step: 2, steps: 2 })}</p>
          {contact && (
            <div className="lsu-field">
              <label htmlFor="lsu-message">{t('landers:member.message', { name: contact.name })}</label>
              <textarea
                id="lsu-message"
                name="signup_message"
                rows={2}
                maxLength={1000}
                defaultValue={t('landers:member.messagePlaceholder', { name: contact.name })}
              />
            </div>
          )}
          <TextField
            name="email"
            type="email"
            autoComplete="email"
            inputMode="email"
            required
            label={t('auth:field.email')}
            defaultValue={values?.email}
            errors={errors}
          />
          <TextField
            name="password"
            type="password"
            autoComplete="new-password"
            required
            minLength={8}
            label={t('auth:field.password')}
            hint={t('auth:hint.password')}
            errors={errors}
          />
          <TextField
            name="date_of_birth"
            type="date"
            autoComplete="bday"
            required
            max={latestBirthdate(settings.min_age)}
            label={t('auth:field.dateOfBirth')}
            hint={t('auth:hint.dateOfBirth', { min_age: settings.min_age })}
            defaultValue={values?.date_of_birth}
            errors={errors}
          />
          <TextField
            name="name"
            autoComplete="nickname"
            maxLength={30}
            label={t('landers:signup.nameOptional')}
            hint={t('landers:signup.nameHint', { suggestion })}
            placeholder={suggestion}
            defaultValue={values?.name}
            errors={errors}
          />
          <p className="lsu-terms">
            {t('auth:signup.terms', { min_age: settings.min_age })}{' '}
            <a href="/pages/terms">{t('footer.terms')}</a> ·{' '}
            <a href="/pages/privacy">{t('footer.privacy')}</a>
          </p>
          <button
            type="submit"
            className="lander-btn lander-btn--primary lander-btn--block"
            data-busy={t('auth:signup.working')}
          >
            {t('auth:signup.submit')}
          </button>
        </div>
      </form>
      <p className="lsu-login">
        {t('auth:signup.haveAccount')} <a href="/login">{t('auth:signup.loginLink')}</a>
      </p>
    </section>
  );
}
