// @vitest-environment happy-dom
import { act, cleanup, screen, waitFor } from '@testing-library/react';
import { useEffect, useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { renderShell, testUser } from '../../tests/setup/render-shell.tsx';
import { SiteEntryWarning } from './site-entry-warning.tsx';
import { TabBar, TopBar } from './top-bar.tsx';
import { WarningBanners } from './warning-banners.tsx';

afterEach(cleanup);

/** Shows "effects ran" once the effects of its first render, and of all rendered with it, have run. */
function AfterEffects() {
  const [ran, setRan] = useState(false);
  useEffect(() => setRan(true), []);
  return ran ? <p>effects ran</p> : null;
}

describe('top bar', () => {
  it('shows 99 unread messages as 99 and 100 as 99+', async () => {
    renderShell(<TopBar />, { user: testUser(), unreadMessages: 99, newLikes: 100 });
    const chats = await screen.findByRole('link', { name: /Chats/ });
    expect(chats.textContent).toContain('99');
    expect(chats.textContent).not.toContain('99+');
    expect(screen.getByRole('link', { name: /Likes/ }).textContent).toContain('99+');
    expect(screen.getByText('Unread messages: 99')).toBeTruthy();
  });

  it('shows no badge at zero', async () => {
    renderShell(<TopBar />, { user: testUser() });
    const chats = await screen.findByRole('link', { name: /Chats/ });
    expect(chats.querySelector('.badge')).toBeNull();
  });

  it('always shows the balance as a number, marked low at 10 credits or fewer', async () => {
    const { unmount } = renderShell(<TopBar />, { user: testUser({ credits: 11 }) });
    const balance = await screen.findByTestId('balance');
    expect(screen.getByTestId('balance-amount').textContent).toBe('11');
    expect(balance.getAttribute('aria-label')).toBe('Your balance: 11 credits. Buy credits');
    expect(balance.className).not.toContain('is-low');
    expect(balance.textContent).not.toMatch(/[$€]/);
    unmount();

    const ten = renderShell(<TopBar />, { user: testUser({ credits: 10 }) });
    expect((await screen.findByTestId('balance')).className).toContain('is-low');
    ten.unmount();

    renderShell(<TopBar />, { user: testUser({ credits: 0 }) });
    const zero = await screen.findByTestId('balance');
    expect(zero.dataset.variant).toBe('danger');
    expect(zero.textContent).toContain('0');
  });

  it('shows Get Premium instead of the balance to a member who never paid (spec: credits or Get Premium)', async () => {
    const free = renderShell(<TopBar />, { user: testUser({ paid_user: false, credits: 3 }) });
    expect((await screen.findByRole('link', { name: 'Get Premium' })).getAttribute('href')).toBe('/premium');
    expect(screen.queryByTestId('balance')).toBeNull();
    free.unmount();

    renderShell(<TopBar />, { user: testUser({ paid_user: true, credits: 3 }) });
    expect((await screen.findByTestId('balance-amount')).textContent).toBe('3');
    expect(screen.queryByRole('link', { name: 'Get Premium' })).toBeNull();
  });

  it('gives members a tab bar with Search, Swipe, Likes, Chats and Profile, with badges', async () => {
    renderShell(
      <>
        <TopBar />
        <TabBar />
      </>,
      { user: testUser(), unreadMessages: 4, newLikes: 2 },
    );
    const tabs = await screen.findByTestId('tab-bar');
    const names = [...tabs.querySelectorAll('a')].map((link) => link.getAttribute('href'));
    expect(names).toEqual(['/members', '/swipe-game', '/likes', '/chats', '/profile']);
    expect(tabs.querySelector('a[href="/chats"]')?.textContent).toContain('Unread messages: 4');
    expect(tabs.querySelector('a[href="/likes"]')?.textContent).toContain('New likes: 2');
  });

  it('offers log in and sign up to visitors', async () => {
    renderShell(<TopBar />);
    expect(await screen.findByRole('link', { name: 'Log in' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Sign up' })).toBeTruthy();
    expect(screen.queryByRole('link', { name: /Chats/ })).toBeNull();
  });
});

describe('banners', () => {
  it('shows one banner at a time, the most important first', async () => {
    const { unmount } = renderShell(
      <>
        <WarningBanners />
        <p>page</p>
      </>,
      { user: testUser({ notifications_disabled: ['bounce'] }) },
    );
    // Alerts count as dismissed until an effect has read the browser's storage.
    expect(await screen.findByTestId('notifications-alert')).toBeTruthy();
    expect(screen.queryByTestId('profile-photo-alert')).toBeNull();
    expect(screen.getAllByRole('status')).toHaveLength(1);
    unmount();

    renderShell(
      <>
        <WarningBanners />
        <p>page</p>
      </>,
      { user: testUser() },
    );
    expect(await screen.findByTestId('profile-photo-alert')).toBeTruthy();
  });
});

describe('site-entry warning', () => {
  it('shows in the default layout, and in other layouts only to visitors from NL and DE', async () => {
    const gb = renderShell(<SiteEntryWarning layout="default" />, { settings: { geoip_country: 'GB' } });
    expect(await screen.findByTestId('site-entry-warning')).toBeTruthy();
    gb.unmount();

    const lander = renderShell(
      <>
        <SiteEntryWarning layout="lander" />
        <p>page</p>
      </>,
      { settings: { geoip_country: 'GB' } },
    );
    // Rendered together with the page: once the page is there, so would the warning be.
    await screen.findByText('page');
    expect(screen.queryByTestId('site-entry-warning')).toBeNull();
    lander.unmount();

    renderShell(<SiteEntryWarning layout="lander" />, { settings: { geoip_country: 'NL' } });
    expect(await screen.findByTestId('site-entry-warning')).toBeTruthy();
  });

  it('stays away once dismissed, and when the site turns it off', async () => {
    renderShell(
      <>
        <SiteEntryWarning layout="default" />
        <p>page</p>
      </>,
      { siteEntrySkipped: true },
    );
    await screen.findByText('page');
    expect(screen.queryByTestId('site-entry-warning')).toBeNull();
    cleanup();
    renderShell(
      <>
        <SiteEntryWarning layout="default" />
        <p>page</p>
      </>,
      { settings: { enable_site_entry_popup: false } },
    );
    await screen.findByText('page');
    expect(screen.queryByTestId('site-entry-warning')).toBeNull();
  });

  it('is closed by the enter button, which sets the 30-day cookie', async () => {
    renderShell(<SiteEntryWarning layout="default" />);
    const enter = await screen.findByRole('button', { name: 'I am 18 or older, enter' });
    act(() => enter.click());
    expect(screen.queryByTestId('site-entry-warning')).toBeNull();
    expect(document.cookie).toContain('skip_site_entry=1');
  });
});

describe('page title', () => {
  it('puts unread messages plus new likes before the title for a member', async () => {
    document.title = 'Amora';
    renderShell(<p>page</p>, { user: testUser(), unreadMessages: 2, newLikes: 1 });
    await waitFor(() => expect(document.title).toBe('(3) Amora'));
  });

  it('leaves the title alone for a visitor', async () => {
    document.title = 'Amora';
    renderShell(
      <>
        <p>page</p>
        <AfterEffects />
      </>,
      { unreadMessages: 2 },
    );
    // The title is set in an effect of the same first render: those have all run by now.
    await screen.findByText('effects ran');
    expect(document.title).toBe('Amora');
  });
});
