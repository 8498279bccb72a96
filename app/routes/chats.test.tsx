// @vitest-environment happy-dom
import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import { Outlet } from 'react-router';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadContract } from '#app/lib/api.ts';
import { retryDelayMs } from '#app/lib/api-client.ts';
import type { ChatListItem } from '#contract/chats.ts';
import { profileFixture } from '../../tests/setup/profile-fixture.ts';
import { renderShell, testUser } from '../../tests/setup/render-shell.tsx';
import Chats, { undoDeleteMs } from './chats.tsx';

beforeAll(() => loadContract());

const chat = (id: number, name: string, at: string): ChatListItem => ({
  profile: profileFixture(id, { name }),
  conversation: { id: id * 10, last_message: null, last_activity: at },
  num_unread_messages: 0,
});
const anna = chat(1, 'Anna', '2026-03-02T10:00:00.000Z');
const bea = chat(2, 'Bea', '2026-03-01T10:00:00.000Z');
/** A conversation the server has meanwhile: the reload shows the server's list, not the old one. */
const cleo = chat(3, 'Cleo', '2026-03-03T10:00:00.000Z');

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

describe('deleting a conversation', () => {
  let fetchMock: ReturnType<typeof vi.fn>;
  let alertMock: ReturnType<typeof vi.fn>;
  let deleteStatus = 404;
  const calls = (method: string, path: string) =>
    fetchMock.mock.calls.filter(
      ([url, init]) =>
        String(url).startsWith(path) && ((init as RequestInit | undefined)?.method ?? 'GET') === method,
    ).length;

  beforeEach(() => {
    vi.useFakeTimers({ shouldAdvanceTime: false });
    alertMock = vi.fn();
    vi.stubGlobal('alert', alertMock);
    fetchMock = vi.fn(async (url: string, init?: RequestInit) => {
      const path = String(url);
      if (path.startsWith('/api/chat.php') && init?.method === 'DELETE')
        return deleteStatus === 404
          ? json(404, { error: 'not_found', message: 'No such conversation' })
          : json(deleteStatus, { error: 'internal_error', message: 'Try again later' });
      if (path.startsWith('/api/chats.php')) return json(200, { chats: [cleo, anna, bea], next: null });
      if (path.startsWith('/api/counts.php')) return json(200, { unread_messages: 0, new_likes: 0 });
      if (path.startsWith('/api/user.php')) return json(200, { user: testUser() });
      return json(200, { profiles: [], liked_by: [], received: [], matches: [], new_matches: [] });
    });
    vi.stubGlobal('fetch', fetchMock);
  });
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  const flush = async (ms = 0) => {
    await act(async () => {
      await vi.advanceTimersByTimeAsync(ms);
    });
  };
  const names = () =>
    screen.queryAllByRole('listitem').map((item) => item.querySelector('strong')?.textContent);

  async function openAndDeleteAnna() {
    renderShell(<Outlet />, {
      user: testUser(),
      routeId: 'chats',
      page: {
        Component: Chats as never,
        loader: () => ({ chats: [anna, bea], next: null, matches: [] }),
      },
    });
    for (let i = 0; i < 5; i++) await flush();
    expect(names()).toEqual(['Anna', 'Bea']);
    fireEvent.click(screen.getByRole('button', { name: 'Delete conversation with Anna' }));
    await flush();
    expect(names()).toEqual(['Bea']);
    expect(screen.getByTestId('chat-deleted').textContent).toContain('Undo');
  }

  it('keeps the undo: brought back within the window, nothing is deleted', async () => {
    await openAndDeleteAnna();
    fireEvent.click(screen.getByRole('button', { name: 'Undo' }));
    await flush(undoDeleteMs + 1000);
    expect(names()).toEqual(['Anna', 'Bea']);
    expect(calls('DELETE', '/api/chat.php')).toBe(0);
    expect(alertMock).not.toHaveBeenCalled();
  });

  it('on a refusal, alerts the error at once after the undo window and reloads the list (spec §8)', async () => {
    deleteStatus = 404;
    await openAndDeleteAnna();
    await flush(undoDeleteMs - 1);
    expect(calls('DELETE', '/api/chat.php')).toBe(0);
    await flush(1);
    await flush();
    expect(calls('DELETE', '/api/chat.php')).toBe(1);
    expect(alertMock).toHaveBeenCalledOnce();
    expect(alertMock).toHaveBeenCalledWith('The conversation could not be deleted: No such conversation');
    await flush();
    expect(calls('GET', '/api/chats.php')).toBe(1);
    // The server's list, newest first, not the old one with the row put back.
    expect(names()).toEqual(['Cleo', 'Anna', 'Bea']);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('on a server failure, alerts right after the last of the five retries, not before', async () => {
    deleteStatus = 503;
    await openAndDeleteAnna();
    await flush(undoDeleteMs);
    const retries = [0, 1, 2, 3, 4].reduce((total, attempt) => total + retryDelayMs(attempt), 0);
    await flush(retries - 1);
    expect(alertMock).not.toHaveBeenCalled();
    expect(names()).toEqual(['Bea']);
    await flush(1);
    await flush();
    expect(calls('DELETE', '/api/chat.php')).toBe(6);
    expect(alertMock).toHaveBeenCalledWith('The conversation could not be deleted: Try again later');
    await flush();
    expect(names()).toEqual(['Cleo', 'Anna', 'Bea']);
  });
});
