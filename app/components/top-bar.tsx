import Dropdown from 'react-bootstrap/Dropdown';
import { ArrowLeft, ChatDots, Coin, Heart, PersonCircle, Search } from 'react-bootstrap-icons';
import { useTranslation } from 'react-i18next';
import { Link, NavLink, useMatches, useNavigate, useRevalidator } from 'react-router';
import { apiFetch } from '../lib/api-client.ts';
import { useRootData } from '../lib/root-data.ts';
import { backButtonVisible, badgeLabel, creditsBadge } from '../lib/shell-rules.ts';
import { useStandalone } from '../lib/use-standalone.ts';
import { useLiveState } from '../state/live-state.tsx';
import { LanguageMenuItem } from './language-switcher.tsx';
import { useSignupModal } from './signup-modal.tsx';

function CountBadge({
  count,
  label,
  className = 'bg-unread',
}: {
  count: number;
  label: string;
  className?: string;
}) {
  const text = badgeLabel(count);
  if (!text) return null;
  return (
    <span className={`badge rounded-pill ${className} top-bar-badge`}>
      <span aria-hidden="true">{text}</span>
      <span className="visually-hidden">{label}</span>
    </span>
  );
}

function NavItem({
  to,
  icon,
  label,
  children,
}: {
  to: string;
  icon: React.ReactNode;
  label: string;
  children?: React.ReactNode;
}) {
  return (
    <li className="nav-item">
      <NavLink to={to} className="nav-link top-bar-link" prefetch="intent">
        <span className="position-relative d-inline-block" aria-hidden="true">
          {icon}
        </span>
        <span className="top-bar-label">{label}</span>
        {children}
      </NavLink>
    </li>
  );
}

/** Top navigation (spec §2): search, chats, likes and credits — or Get Premium — for members. */
export function TopBar() {
  const { t } = useTranslation();
  const { settings } = useRootData();
  const { user, unreadMessages, newLikes, setUser } = useLiveState();
  const standalone = useStandalone();
  const matches = useMatches();
  const navigate = useNavigate();
  const revalidator = useRevalidator();
  const leafId = matches.at(-1)?.id;
  const credits = user ? creditsBadge(user.credits) : null;
  const signupModal = useSignupModal();

  const logout = async () => {
    await apiFetch('/api/logout.php', { method: 'POST' }).catch(() => undefined);
    setUser(null);
    await navigate('/');
    await revalidator.revalidate();
  };

  return (
    <header
      className="top-bar border-bottom bg-white sticky-top"
      style={{ borderTop: `3px solid ${settings.theme_color}` }}
    >
      <nav className="navbar navbar-expand container" aria-label={t('nav.main')}>
        {backButtonVisible(standalone, leafId) && (
          <button type="button" className="btn btn-link text-body me-1 px-1" onClick={() => navigate(-1)}>
            <ArrowLeft aria-hidden="true" size={22} />
            <span className="visually-hidden">{t('nav.back')}</span>
          </button>
        )}
        <Link
          to={user ? '/members' : '/'}
          className="navbar-brand fw-bold me-auto"
          style={{ color: settings.theme_color }}
          data-testid="site-brand"
        >
          <span aria-hidden="true">{settings.name}</span>
          <span className="visually-hidden">{t('nav.home', { site: settings.name })}</span>
        </Link>
        {user ? (
          <ul className="navbar-nav align-items-center gap-1 gap-sm-2">
            <NavItem to="/members" icon={<Search size={20} />} label={t('nav.search')} />
            <NavItem to="/chats" icon={<ChatDots size={20} />} label={t('nav.chats')}>
              <CountBadge count={unreadMessages} label={t('nav.unreadMessages', { count: unreadMessages })} />
            </NavItem>
            <NavItem to="/likes" icon={<Heart size={20} />} label={t('nav.likes')}>
              <CountBadge count={newLikes} label={t('nav.newLikes', { count: newLikes })} />
            </NavItem>
            {user.paid_user ? (
              <NavItem to="/credits" icon={<Coin size={20} />} label={t('nav.credits')}>
                {credits && (
                  <span
                    className={`badge rounded-pill text-bg-${credits.variant} top-bar-badge`}
                    data-testid="credits-badge"
                  >
                    <span aria-hidden="true">{credits.label}</span>
                    <span className="visually-hidden">{t('nav.creditsLeft', { count: user.credits })}</span>
                  </span>
                )}
              </NavItem>
            ) : (
              <li className="nav-item">
                <Link to="/premium" className="btn btn-sm btn-warning fw-semibold">
                  {t('nav.getPremium')}
                </Link>
              </li>
            )}
            <li className="nav-item">
              <Dropdown align="end">
                <Dropdown.Toggle variant="link" className="nav-link top-bar-link" id="account-menu">
                  <PersonCircle aria-hidden="true" size={22} />
                  <span className="top-bar-label">{t('nav.account')}</span>
                </Dropdown.Toggle>
                <Dropdown.Menu>
                  <Dropdown.Item as={Link} to="/profile">
                    {t('nav.profile')}
                  </Dropdown.Item>
                  <Dropdown.Item as={Link} to="/swipe-game">
                    {t('nav.swipeGame')}
                  </Dropdown.Item>
                  <Dropdown.Item as={Link} to="/notifications">
                    {t('nav.notifications')}
                  </Dropdown.Item>
                  <Dropdown.Item as={Link} to="/transactions">
                    {t('nav.transactions')}
                  </Dropdown.Item>
                  <LanguageMenuItem />
                  <Dropdown.Divider />
                  <Dropdown.Item as="button" onClick={() => void logout()}>
                    {t('nav.logout')}
                  </Dropdown.Item>
                </Dropdown.Menu>
              </Dropdown>
            </li>
          </ul>
        ) : (
          <div className="d-flex gap-2">
            <Link to="/login" className="btn btn-outline-primary btn-sm">
              {t('nav.login')}
            </Link>
            <Link
              to="/signup"
              className="btn btn-primary btn-sm"
              onClick={(event) => {
                if (!signupModal) return;
                event.preventDefault();
                signupModal.open();
              }}
            >
              {t('nav.signup')}
            </Link>
          </div>
        )}
      </nav>
    </header>
  );
}
