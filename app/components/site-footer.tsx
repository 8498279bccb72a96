import { Link } from 'react-router';
import { useRootData } from '#app/lib/root-data.ts';
import { useTranslation } from '#app/lib/use-translation.ts';
import { CompanyBlock } from './company-block.tsx';
import { LanguageSwitcher } from './language-switcher.tsx';

export const footerLinks = [
  { to: '/pages/terms', key: 'footer.terms' },
  { to: '/pages/privacy', key: 'footer.privacy' },
  { to: '/pages/cookies', key: 'footer.cookies' },
  { to: '/pages/ban', key: 'footer.ban' },
  { to: '/pricing', key: 'footer.pricing' },
  { to: '/complaints', key: 'footer.complaints' },
  { to: '/pages/return-policy', key: 'footer.returnPolicy' },
  { to: '/pages/faq', key: 'footer.faq' },
  { to: '/pages/service', key: 'footer.service' },
] as const;

export const paymentIcons = ['mastercard', 'visa', 'applepay'] as const;

/**
 * The footer of spec §2. Visitors and members with a traffic source get their own footer: no
 * payment-method icons and no company address. English sites may add the US notice.
 */
export function SiteFooter() {
  const { t } = useTranslation();
  const { settings, company, locale, hasTrafficSource } = useRootData();
  const year = new Date().getFullYear();
  return (
    <footer className="site-footer border-top bg-light mt-5 py-4 small" data-testid="site-footer">
      <div className="container">
        <nav aria-label={t('footer.legal')}>
          <ul className="list-inline mb-3">
            {footerLinks.map((link) => (
              <li key={link.to} className="list-inline-item me-3">
                <Link to={link.to} className="link-secondary">
                  {t(link.key)}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <div className="d-flex flex-wrap justify-content-between align-items-start gap-3">
          <LanguageSwitcher />
          {!hasTrafficSource && (
            <ul
              className="list-inline mb-0"
              aria-label={t('footer.paymentMethods')}
              data-testid="payment-icons"
            >
              {paymentIcons.map((name) => (
                <li key={name} className="list-inline-item">
                  <img
                    src={`/api/assets/paymentmethod/${name}.svg`}
                    alt={name}
                    width={48}
                    height={30}
                    loading="lazy"
                  />
                </li>
              ))}
            </ul>
          )}
        </div>
        {locale === 'en' && settings.us_footer && (
          <div className="mt-3" data-testid="us-footer">
            <p className="mb-1">{t('footer.usNotice')}</p>
            <Link to="/pages/compliance" className="link-secondary">
              {t('footer.compliance')}
            </Link>
          </div>
        )}
        <div className="mt-3 text-body-secondary">
          {!hasTrafficSource && company && (
            <div className="mb-2" data-testid="company-block">
              <CompanyBlock companyId={settings.company_id} company={company} site={settings.name} />
            </div>
          )}
          <p className="mb-1">{t('footer.support', { email: settings.support_email })}</p>
          <p className="mb-0">{t('footer.copyright', { year, company: company?.name ?? settings.name })}</p>
        </div>
      </div>
    </footer>
  );
}

/** The disclaimer under the footer: the site's own fictional-profile warning, or the translated default. */
export function Disclaimer() {
  const { t } = useTranslation();
  const { settings } = useRootData();
  return (
    <p className="container small text-body-secondary py-3 mb-0" data-testid="disclaimer">
      {settings.fictional_warning || t('disclaimer.text', { site: settings.name })}
    </p>
  );
}
