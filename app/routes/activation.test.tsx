// @vitest-environment happy-dom
import { cleanup, screen } from '@testing-library/react';
import { Outlet } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { renderShell, testUser } from '../../tests/setup/render-shell.tsx';
import Activation from './activation.tsx';

const image = { filename: '/p/1.jpg', thumb_filename: '/p/1-t.jpg', match: '/p/1-m.jpg' };

afterEach(cleanup);

const actions = async () => {
  await screen.findByRole('heading', { level: 1 });
  return screen.getAllByRole('link').map((link) => [link.textContent, link.getAttribute('href')]);
};

describe('the activated page', () => {
  it('leads a member without a photo to the photos first, search second', async () => {
    renderShell(<Outlet />, {
      user: testUser(),
      routeId: 'activate-done',
      page: { Component: Activation as never },
    });
    expect(await actions()).toEqual([
      ['Add your first photo', '/profile#photos'],
      ['Start searching', '/members'],
    ]);
    expect(screen.getByRole('link', { name: 'Add your first photo' }).className).toContain('btn-primary');
  });

  it('keeps "Start searching" alone for a member with a photo', async () => {
    const user = testUser();
    renderShell(<Outlet />, {
      user: { ...user, profile: { ...user.profile, main_image: image } },
      routeId: 'activate-done',
      page: { Component: Activation as never },
    });
    expect(await actions()).toEqual([['Start searching', '/members']]);
  });

  it('offers the photo too when a confirmed member opens the link again', async () => {
    renderShell(<Outlet />, {
      user: testUser(),
      routeId: 'activate-error',
      page: { Component: Activation as never },
    });
    expect(await screen.findByTestId('already-confirmed')).toBeTruthy();
    expect(await actions()).toEqual([
      ['Add your first photo', '/profile#photos'],
      ['Start searching', '/members'],
    ]);
  });
});
