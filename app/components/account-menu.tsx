import { useState } from 'react';
import { Dropdown, Modal } from 'react-bootstrap';
import { PersonFill, Translate } from 'react-bootstrap-icons';
import { Link } from 'react-router';
import { LabelValue } from '#app/components/label-value.tsx';
import { useRootData } from '#app/lib/root-data.ts';
import { useShownOnce } from '#app/lib/use-shown-once.ts';
import { useTranslation } from '#app/lib/use-translation.ts';
import { localeNames } from '#contract/locales.ts';
import { LanguageSwitcher } from './language-switcher.tsx';

/**
 * The member's account menu (profile, money, settings, language, log out). Its own chunk: the
 * dropdown and its positioning code load for members only, never on the visitors' pages.
 */
export default function AccountMenu({ photo, onLogout }: { photo: string | null; onLogout: () => void }) {
  const { t } = useTranslation();
  return (
    <Dropdown align="end">
      <Dropdown.Toggle variant="link" className="account-toggle" id="account-menu">
        {photo ? <img src={photo} alt="" /> : <PersonFill aria-hidden="true" size={20} />}
        <span className="visually-hidden">{t('nav.account')}</span>
      </Dropdown.Toggle>
      <Dropdown.Menu>
        <Dropdown.Item as={Link} to="/profile">
          {t('nav.profile')}
        </Dropdown.Item>
        <Dropdown.Item as={Link} to="/credits">
          {t('nav.credits')}
        </Dropdown.Item>
        <Dropdown.Item as={Link} to="/premium">
          {t('nav.premium')}
        </Dropdown.Item>
        <Dropdown.Item as={Link} to="/swipe-game">
          {t('nav.swipeGame')}
        </Dropdown.Item>
        <Dropdown.Item as={Link} to="/notifications">
          {t('nav.notifications')}
        </Dropdown.Item>
        <Dropdown.Item as={Link} to="/profile/account" data-testid="menu-account-settings">
          {t('nav.accountSettings')}
        </Dropdown.Item>
        <Dropdown.Item as={Link} to="/transactions">
          {t('nav.transactions')}
        </Dropdown.Item>
        <LanguageMenuItem />
        <Dropdown.Divider />
        <Dropdown.Item as="button" onClick={onLogout}>
          {t('nav.logout')}
        </Dropdown.Item>
      </Dropdown.Menu>
    </Dropdown>
  );
}

/** The account menu's entry: the current language; choosing it opens the switcher in a dialog. */
export function LanguageMenuItem() {
  const { t } = useTranslation();
  const { locale } = useRootData();
  const [open, setOpen] = useState(false);
  const mounted = useShownOnce(open);
  return (
    <>
      <Dropdown.Item as="button" onClick={() => setOpen(true)} data-testid="language-menu-item">
        <Translate aria-hidden="true" className="me-2" />
        <LabelValue label={t('footer.language')} value={<span lang={locale}>{localeNames[locale]}</span>} />
      </Dropdown.Item>
      {mounted && (
        <Modal show={open} onHide={() => setOpen(false)} centered size="sm">
          <Modal.Header closeButton closeLabel={t('close')}>
            <Modal.Title as="h2" className="h5">
              {t('footer.language')}
            </Modal.Title>
          </Modal.Header>
          <Modal.Body>
            <LanguageSwitcher compact />
          </Modal.Body>
        </Modal>
      )}
    </>
  );
}
