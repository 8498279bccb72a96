// @vitest-environment happy-dom
import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { renderShell, testUser } from '../../tests/setup/render-shell.tsx';
import { SiteEntryWarning } from './site-entry-warning.tsx';
import { TopBar } from './top-bar.tsx';

afterEach(cleanup);

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

  it('shows the credits badge at 10 credits (warning), not at 11, and as danger at 0', async () => {
    const { unmount } = renderShell(<TopBar />, { user: testUser({ credits: 11 }) });
    await screen.findByRole('link', { name: /Credits/ });
    expect(screen.queryByTestId('credits-badge')).toBeNull();
    unmount();

    const ten = renderShell(<TopBar />, { user: testUser({ credits: 10 }) });
    expect((await screen.findByTestId('credits-badge')).className).toContain('text-bg-warning');
    ten.unmount();

    renderShell(<TopBar />, { user: testUser({ credits: 0 }) });
    const zero = await screen.findByTestId('credits-badge');
    expect(zero.className).toContain('text-bg-danger');
    expect(zero.textContent).toContain('0');
  });

  it('offers Get Premium instead of credits to a member who never paid', async () => {
    renderShell(<TopBar />, { user: testUser({ paid_user: false, credits: 3 }) });
    expect(await screen.findByRole('link', { name: 'Get Premium' })).toBeTruthy();
    expect(screen.queryByRole('link', { name: /Credits/ })).toBeNull();
  });

  it('offers log in and sign up to visitors', async () => {
    renderShell(<TopBar />);
    expect(await screen.findByRole('link', { name: 'Log in' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Sign up' })).toBeTruthy();
    expect(screen.queryByRole('link', { name: /Chats/ })).toBeNull();
  });
});

describe('site-entry warning', () => {
  it('shows in the default layout, and in other layouts only to visitors from NL and DE', async () => {
    const gb = renderShell(<SiteEntryWarning layout="default" />, { settings: { geoip_country: 'GB' } });
    expect(await screen.findByTestId('site-entry-warning')).toBeTruthy();
    gb.unmount();

    const lander = renderShell(<SiteEntryWarning layout="lander" />, { settings: { geoip_country: 'GB' } });
    await new Promise((resolve) => setTimeout(resolve, 0));
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
    enter.click();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(screen.queryByTestId('site-entry-warning')).toBeNull();
    expect(document.cookie).toContain('skip_site_entry=1');
  });
});

describe('page title', () => {
  it('puts unread messages plus new likes before the title for a member', async () => {
    document.title = 'Amora';
    renderShell(<p>page</p>, { user: testUser(), unreadMessages: 2, newLikes: 1 });
    await screen.findByText('page');
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(document.title).toBe('(3) Amora');
  });

  it('leaves the title alone for a visitor', async () => {
    document.title = 'Amora';
    renderShell(<p>page</p>, { unreadMessages: 2 });
    await screen.findByText('page');
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(document.title).toBe('Amora');
  });
});
