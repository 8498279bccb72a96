// @vitest-environment happy-dom
import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadContract } from '#app/lib/api.ts';
import type { Profile } from '#contract/profiles.ts';
import { profileFixture } from '../../tests/setup/profile-fixture.ts';
import { renderShell, testUser } from '../../tests/setup/render-shell.tsx';
import { LikeButton, unlikeUndoMs } from './like-button.tsx';

// The typed client loads the contract with its first call; loaded here, calls go out at once
// and the fake timers below count them as the page would.
beforeAll(() => loadContract());

const mila: Profile = profileFixture(77, { name: 'Mila', age: 31 });

const json = (body: unknown) =>
  new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });

describe('LikeButton: unlike with an undo window', () => {
  let fetchMock: ReturnType<typeof vi.fn>;
  beforeEach(() => {
    vi.useFakeTimers({ shouldAdvanceTime: false });
    fetchMock = vi.fn(async () => json({ ok: true }));
    vi.stubGlobal('fetch', fetchMock);
  });
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  const unlikes = () =>
    fetchMock.mock.calls
      .filter(([url, init]) => url === '/api/like.php' && init?.method === 'DELETE')
      .map(([, init]) => JSON.parse(String(init?.body)));
  const rendered = async () => {
    renderShell(<LikeButton profile={mila} liked={true} />, { user: testUser() });
    for (let i = 0; i < 5; i++) {
      await act(async () => {
        await Promise.resolve();
      });
    }
    return screen.getByTestId('like-button');
  };

  it('sends nothing when "Undo" is tapped within the window, and the like stays', async () => {
    const button = await rendered();
    await act(async () => {
      fireEvent.click(button);
    });
    expect(screen.getByTestId('unlike-toast').textContent).toContain('You took back your like for Mila.');
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Undo' }));
    });
    await act(async () => {
      vi.advanceTimersByTime(unlikeUndoMs * 2);
    });
    expect(unlikes()).toEqual([]);
    expect(screen.getByTestId('like-button').getAttribute('aria-pressed')).toBe('true');
  });

  it('takes the like back once the window has closed', async () => {
    const button = await rendered();
    await act(async () => {
      fireEvent.click(button);
    });
    await act(async () => {
      vi.advanceTimersByTime(unlikeUndoMs - 1);
    });
    expect(unlikes()).toEqual([]);
    await act(async () => {
      vi.advanceTimersByTime(1);
    });
    expect(unlikes()).toEqual([{ profile: 77 }]);
    expect(screen.queryByTestId('unlike-toast')).toBeNull();
    expect(screen.getByTestId('like-button').getAttribute('aria-pressed')).toBe('false');
  });
});
