import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { useRevalidator } from 'react-router';
import {
  isLocale,
  localeCookieMaxAgeSeconds,
  localeCookieName,
  localeNames,
  locales,
} from '#contract/locales.ts';
import { apiFetch } from '../lib/api-client.ts';
import { setBrowserCookie } from '../lib/cookies.ts';
import { useRootData } from '../lib/root-data.ts';
import { useLiveStateOptional } from '../state/live-state.tsx';

/** Sets the locale cookie (365 days) and, for a member, the account language; the page re-renders. */
export function LanguageSwitcher() {
  const { t } = useTranslation();
  const { locale } = useRootData();
  const live = useLiveStateOptional();
  const revalidator = useRevalidator();
  const id = useId();

  const change = async (value: string) => {
    if (!isLocale(value)) return;
    setBrowserCookie(localeCookieName, value, localeCookieMaxAgeSeconds);
    if (live?.user)
      await apiFetch('/api/user.php', { method: 'PUT', body: { language: value } }).catch(() => undefined);
    await revalidator.revalidate();
  };

  return (
    <div className="d-flex align-items-center gap-2">
      <label htmlFor={id} className="form-label mb-0 small">
        {t('footer.language')}
      </label>
      <select
        id={id}
        className="form-select form-select-sm w-auto"
        value={locale}
        onChange={(event) => void change(event.target.value)}
        data-testid="language-switcher"
      >
        {locales.map((code) => (
          <option key={code} value={code} lang={code}>
            {localeNames[code]}
          </option>
        ))}
      </select>
    </div>
  );
}
