import { useEffect, useId, useRef, useState } from 'react';
import { useMatches } from 'react-router';
import { setBrowserCookie } from '#app/lib/cookies.ts';
import { useRootData } from '#app/lib/root-data.ts';
import {
  type LayoutName,
  siteEntryExcludedRoutes,
  siteEntrySkipCookie,
  siteEntrySkipDays,
  siteEntryWarningVisible,
} from '#app/lib/shell-rules.ts';
import { useTranslation } from '#app/lib/use-translation.ts';

/**
 * The 18+ notice at the site's door (spec §2). Rendered on the server, so it is there before any
 * script runs; closing it sets a cookie that skips it for 30 days.
 */
export function SiteEntryWarning({ layout }: { layout: LayoutName }) {
  const { t } = useTranslation();
  const { settings, siteEntrySkipped } = useRootData();
  const matches = useMatches();
  const [closed, setClosed] = useState(false);
  const enterButton = useRef<HTMLButtonElement>(null);
  const titleId = useId();
  const bodyId = useId();

  const visible =
    !closed &&
    siteEntryWarningVisible({
      enabled: settings.enable_site_entry_popup,
      skipped: siteEntrySkipped,
      routeExcluded: matches.some((match) => siteEntryExcludedRoutes.includes(match.id)),
      layout,
      country: settings.geoip_country,
    });

  useEffect(() => {
    if (!visible) return;
    enterButton.current?.focus();
    document.body.classList.add('modal-open');
    return () => document.body.classList.remove('modal-open');
  }, [visible]);

  if (!visible) return null;

  const enter = () => {
    setBrowserCookie(siteEntrySkipCookie, '1', siteEntrySkipDays * 24 * 3600);
    setClosed(true);
  };

  return (
    <>
      <div
        className="modal d-block"
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={bodyId}
        data-testid="site-entry-warning"
      >
        <div className="modal-dialog modal-dialog-centered">
          <div className="modal-content">
            <div className="modal-body p-4 text-center">
              <p className="display-6 fw-bold text-primary mb-2" aria-hidden="true">
                {settings.min_age}+
              </p>
              <h2 id={titleId} className="h4">
                {t('siteEntry.title')}
              </h2>
              <p id={bodyId}>{t('siteEntry.body', { site: settings.name, min_age: settings.min_age })}</p>
              <div className="d-grid gap-2">
                <button ref={enterButton} type="button" className="btn btn-primary btn-lg" onClick={enter}>
                  {t('siteEntry.enter', { min_age: settings.min_age })}
                </button>
                <a className="btn btn-link" href="https://www.google.com/" rel="noreferrer">
                  {t('siteEntry.leave')}
                </a>
              </div>
            </div>
          </div>
        </div>
      </div>
      <div className="modal-backdrop show" />
    </>
  );
}
