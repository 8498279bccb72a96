// @vitest-environment happy-dom
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { profileFixture } from '../../tests/setup/profile-fixture.ts';
import { renderShell, testUser } from '../../tests/setup/render-shell.tsx';
import { MatchModal } from './match-modal.tsx';

const mila = profileFixture(77, {
  name: 'Mila',
  main_image: { filename: '/media/a.webp', thumb_filename: '/media/a-thumb.webp', match: '/media/a-m.webp' },
});

afterEach(cleanup);

describe('the match moment', () => {
  it('gives a member without a photo their initial, puts "Send a message" first and close last', async () => {
    renderShell(<MatchModal profile={mila} onClose={() => {}} />, { user: testUser() });
    const modal = await screen.findByTestId('match-modal');
    expect(within(modal).getByTestId('match-initial').textContent).toBe('R');
    expect(modal.querySelector('img')?.getAttribute('src')).toBe('/media/a-m.webp');
    const focusable = [...modal.querySelectorAll('a[href], button')].map(
      (element) => element.getAttribute('aria-label') ?? element.textContent,
    );
    expect(focusable).toEqual(['Send a message', 'Keep swiping', 'Close']);
    // The phone's full screen hangs on this class (styles in _discover.scss).
    expect(document.querySelector('.modal-dialog')?.classList.contains('match-dialog')).toBe(true);
  });

  it('keeps Tab and Shift+Tab going round its own controls', async () => {
    renderShell(<MatchModal profile={mila} onClose={() => {}} />, { user: testUser() });
    const modal = await screen.findByTestId('match-modal');
    const send = within(modal).getByTestId('match-send-message');
    const close = within(modal).getByRole('button', { name: 'Close' });
    const tab = (shiftKey = false) =>
      fireEvent.keyDown(document.activeElement ?? document.body, { key: 'Tab', shiftKey });
    document.body.focus();
    tab();
    expect(document.activeElement).toBe(send);
    close.focus();
    tab();
    expect(document.activeElement).toBe(send);
    tab(true);
    expect(document.activeElement).toBe(close);
  });

  it('closes on Escape', async () => {
    const onClose = vi.fn();
    renderShell(<MatchModal profile={mila} onClose={onClose} />, { user: testUser() });
    const modal = await screen.findByTestId('match-modal');
    fireEvent.keyDown(modal, { key: 'Escape', code: 'Escape' });
    expect(onClose).toHaveBeenCalledTimes(1);
  });
});
