import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { ArrowLeft, ChatHeartFill, HeartFill, PersonFill, Search, Stack } from 'react-bootstrap-icons';
import { Link, NavLink, useMatches, useNavigate, useRevalidator } from 'react-router';
import { apiFetch } from '#app/lib/api-client.ts';
import { reportCaught } from '#app/lib/report-caught.ts';
import { useRootData } from '#app/lib/root-data.ts';
import { backButtonVisible, badgeLabel, creditsBadge } from '#app/lib/shell-rules.ts';
import { useStandalone } from '#app/lib/use-standalone.ts';
import { useTranslation } from '#app/lib/use-translation.ts';
import { useCounts } from '#app/state/counts.tsx';
import { useSession } from '#app/state/session.tsx';
import { CreditsIcon } from './credits-icon.tsx';
import { useSignupModal } from './signup-modal.tsx';
import { WelcomeOfferPill } from './time-bonus.tsx';

// Members only: the menu's dropdown code stays out of the visitors' pages.
const AccountMenu = lazy(() => import('./account-menu.tsx'));

function AccountMenuPlaceholder() {
  return (
    <span className="account-toggle" aria-hidden="true">
      <PersonFill size={20} />
    </span>
  );
}

export function CountBadge({ count, label }: { count: number; label: string }) {
  const text = badgeLabel(count);
  if (!text) return null;
  return (
    <span className="count-badge badge" data-testid="count-badge">
      <span aria-hidden="true">{text}</span>
      <span className="visually-hidden">{label}</span>
    </span>
  );
}

/** The sections of the members' area: the phone's tab bar and the desktop navigation. */
export function useMemberSections() {
  const { t } = useTranslation();
  const { unreadMessages, newLikes } = useCounts();
  return [
    {
      to: '/members',
      key: 'search',
      label: t('nav.search'),
      icon: <Search size={22} />,
      count: 0,
      countLabel: '',
    },
    {
      to: '/swipe-game',
      key: 'swipe',
      label: t('nav.swipe'),
      icon: <Stack size={22} />,
      count: 0,
      countLabel: '',
    },
    {
      to: '/likes',
      key: 'likes',
      label: t('nav.likes'),
      icon: <HeartFill size={22} />,
      count: newLikes,
      countLabel: t('nav.newLikes', { count: newLikes }),
    },
    {
      to: '/chats',
      key: 'chats',
      label: t('nav.chats'),
      icon: <ChatHeartFill size={22} />,
      count: unreadMessages,
      countLabel: t('nav.unreadMessages', { count: unreadMessages }),
    },
  ];
}

/** The balance as a number, always in sight; it pops when a live event changes it. */
function BalanceChip({ credits }: { credits: number }) {
  const { t } = useTranslation();
  const low = creditsBadge(credits);
  const previous = useRef(credits);
  const [changed, setChanged] = useState(false);
  useEffect(() => {
    if (previous.current === credits) return;
    previous.current = credits;
    setChanged(true);
    const timer = setTimeout(() => setChanged(false), 700);
    return () => clearTimeout(timer);
  }, [credits]);
  return (
    <Link
      to="/credits"
      className={`balance-chip${low ? ' is-low' : ''}${changed ? ' is-changed' : ''}`}
      data-testid="balance"
      data-variant={low?.variant}
      aria-label={t('nav.balance', { count: credits })}
      prefetch="intent"
    >
      <CreditsIcon />
      <span data-testid="balance-amount">{credits}</span>
    </Link>
  );
}

/**
 * Top bar (spec §2): brand, the members' sections on desktop, the credit balance as a number (Get
 * Premium instead, with the welcome offer's countdown while it runs, for a member who never paid)
 * and the account menu (language switcher included); on a phone the sections move to the tab bar.
 */
export function TopBar() {
  const { t } = useTranslation();
  const { settings } = useRootData();
  const { user, setUser } = useSession();
  const sections = useMemberSections();
  const standalone = useStandalone();
  const matches = useMatches();
  const navigate = useNavigate();
  const revalidator = useRevalidator();
  const leafId = matches.at(-1)?.id;
  const signupModal = useSignupModal();

  const logout = async () => {
    // Logged out on this page either way; the revalidation below shows what the server kept.
    await apiFetch('/api/logout.php', { method: 'POST' }).catch((error: unknown) =>
      reportCaught('logout', error),
    );
    setUser(null);
    await navigate('/');
    await revalidator.revalidate();
  };

  return (
    <header className="top-bar" data-testid="top-bar">
      <nav className="top-bar-inner" aria-label={t('nav.main')}>
        {backButtonVisible(standalone, leafId) && (
          <button type="button" className="btn btn-link text-body px-1" onClick={() => navigate(-1)}>
            <ArrowLeft aria-hidden="true" size={22} />
            <span className="visually-hidden">{t('nav.back')}</span>
          </button>
        )}
        <Link
          to={user ? '/members' : '/'}
          className="brand-logo"
          style={{ color: settings.theme_color }}
          data-testid="site-brand"
        >
          <span aria-hidden="true">{settings.name}</span>
          <span className="visually-hidden">{t('nav.home', { site: settings.name })}</span>
        </Link>
        {user && (
          <ul className="top-nav" data-testid="top-nav">
            {sections.map((section) => (
              <li key={section.key}>
                <NavLink to={section.to} className="top-nav-link" prefetch="intent">
                  <span aria-hidden="true" className="d-inline-flex">
                    {section.icon}
                  </span>
                  {section.label}
                  <CountBadge count={section.count} label={section.countLabel} />
                </NavLink>
              </li>
            ))}
          </ul>
        )}
        {user ? (
          <div className="top-bar-actions">
            {/* Spec §2: credits, or Get Premium for a member who never paid. */}
            {user.paid_user ? (
              <BalanceChip credits={user.credits} />
            ) : (
              <>
                <WelcomeOfferPill />
                <Link to="/premium" className="btn btn-sm btn-cta text-nowrap" data-testid="get-premium">
                  {t('nav.getPremium')}
                </Link>
              </>
            )}
            <Suspense fallback={<AccountMenuPlaceholder />}>
              <AccountMenu
                photo={user.profile.main_image?.thumb_filename ?? null}
                onLogout={() => void logout()}
              />
            </Suspense>
          </div>
        ) : (
          <div className="top-bar-actions">
            <Link to="/login" className="btn btn-outline-primary btn-sm">
              {t('nav.login')}
            </Link>
            <Link
              to="/signup"
              className="btn btn-cta btn-sm"
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

/** Phone: the members' sections at the thumb (hidden from md up, where the top bar has them). */
export function TabBar() {
  const { t } = useTranslation();
  const sections = useMemberSections();
  return (
    <nav className="tab-bar" aria-label={t('nav.tabs')} data-testid="tab-bar">
      {[
        ...sections,
        {
          to: '/profile',
          key: 'profile',
          label: t('nav.me'),
          icon: <PersonFill size={22} />,
          count: 0,
          countLabel: '',
        },
      ].map((section) => (
        <NavLink key={section.key} to={section.to} className="tab-bar-link" prefetch="intent">
          <span className="tab-bar-icon">
            <span aria-hidden="true" className="d-inline-flex">
              {section.icon}
            </span>
            <CountBadge count={section.count} label={section.countLabel} />
          </span>
          {section.label}
        </NavLink>
      ))}
    </nav>
  );
}
