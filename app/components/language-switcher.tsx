import { type FormEvent, useEffect, useId, useState } from 'react';
import { useLocation, useNavigate, useRevalidator } from 'react-router';
import { apiFetch } from '#app/lib/api-client.ts';
import { setBrowserCookie } from '#app/lib/cookies.ts';
import { reportCaught } from '#app/lib/report-caught.ts';
import { useRootData } from '#app/lib/root-data.ts';
import { useTranslation } from '#app/lib/use-translation.ts';
import { useOptionalSession } from '#app/state/session.tsx';
import {
  isLocale,
  type Locale,
  localeCookieMaxAgeSeconds,
  localeCookieName,
  localeNames,
  locales,
} from '#contract/locales.ts';

/**
 * The language choice: pick a language, then press the button. Without JavaScript the form opens
 * the page with `?lang=`, which sets the locale cookie on the server. With it, the cookie (365 days)
 * and, for a member, the account language are set here, the page re-renders in place and a live
 * region tells screen-reader users that the language changed.
 */
export function LanguageSwitcher({ compact = false }: { compact?: boolean }) {
  const { t } = useTranslation();
  const { locale } = useRootData();
  const { pathname, search, hash } = useLocation();
  const navigate = useNavigate();
  const live = useOptionalSession();
  const revalidator = useRevalidator();
  const id = useId();
  const [choice, setChoice] = useState<Locale>(locale);
  const [announce, setAnnounce] = useState(false);
  // After a change elsewhere (another switcher on the page), the select shows the page's language.
  useEffect(() => setChoice(locale), [locale]);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!isLocale(choice) || choice === locale) return;
    setBrowserCookie(localeCookieName, choice, localeCookieMaxAgeSeconds);
    if (live?.user)
      // The cookie already switches the pages; the account's language (its mails) is reported if it fails.
      await apiFetch('/api/user.php', { method: 'PUT', body: { language: choice } }).catch((error: unknown) =>
        reportCaught('saving the language', error),
      );
    // A ?lang= in the address would still choose the old language: drop it, which reloads the data.
    const params = new URLSearchParams(search);
    if (params.has('lang')) {
      params.delete('lang');
      const rest = params.toString();
      await navigate(`${pathname}${rest ? `?${rest}` : ''}${hash}`, {
        replace: true,
        preventScrollReset: true,
      });
    } else {
      await revalidator.revalidate();
    }
    setAnnounce(true);
  };

  return (
    <form
      method="get"
      action={pathname}
      className="d-flex align-items-center gap-2"
      onSubmit={(event) => void submit(event)}
      data-testid="language-form"
    >
      <label htmlFor={id} className={compact ? 'visually-hidden' : 'form-label mb-0 small'}>
        {t('footer.language')}
      </label>
      <select
        id={id}
        name="lang"
        className="form-select form-select-sm w-auto"
        value={choice}
        onChange={(event) => {
          if (isLocale(event.target.value)) setChoice(event.target.value);
        }}
        data-testid="language-switcher"
      >
        {locales.map((code) => (
          <option key={code} value={code} lang={code}>
            {localeNames[code]}
          </option>
        ))}
      </select>
      <button type="submit" className="btn btn-sm btn-outline-secondary" data-testid="language-apply">
        {t('language.apply')}
      </button>
      <span className="visually-hidden" aria-live="polite" data-testid="language-status">
        {announce ? t('language.changed') : ''}
      </span>
    </form>
  );
}
