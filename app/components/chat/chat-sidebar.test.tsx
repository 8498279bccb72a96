// @vitest-environment happy-dom
import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { withOpenConversation } from '#app/state/chat/chat-list-updates.ts';
import type { ChatListItem, ChatResponse } from '#contract/chats.ts';
import { profileFixture } from '../../../tests/setup/profile-fixture.ts';
import { renderShell, testUser } from '../../../tests/setup/render-shell.tsx';
import { ChatSidebar } from './chat-sidebar.tsx';

const chat = (id: number, name: string, at: string): ChatListItem => ({
  profile: profileFixture(id, { name }),
  conversation: { id: id * 10, last_message: null, last_activity: at },
  num_unread_messages: 0,
});
const older = chat(1, 'Anna', '2026-03-01T10:00:00.000Z');
const newer = chat(2, 'Bea', '2026-03-03T10:00:00.000Z');

/** A conversation just opened from a new match: no message yet, so not in GET /api/chats.php. */
const opened = (id: number, name: string, at: string): ChatResponse => ({
  conversation: { id: id * 10, last_message: null, last_activity: at },
  profile: profileFixture(id, { name }),
  off_shift_reply_minutes: null,
  messages: [],
  has_older: false,
  costs: { message: 1, photo: 2, gift: 3, free_messages_left: 3, minimum_message_cost: null },
  can_reply: true,
});

afterEach(cleanup);

describe('the desktop chat column beside a conversation', () => {
  it('lists the open conversation before its first message, in its place by activity', () => {
    const fresh = opened(3, 'Cleo', '2026-03-04T10:00:00.000Z');
    expect(withOpenConversation([newer, older], fresh).map((item) => item.profile.name)).toEqual([
      'Cleo',
      'Bea',
      'Anna',
    ]);
    const between = opened(3, 'Cleo', '2026-03-02T10:00:00.000Z');
    expect(withOpenConversation([newer, older], between).map((item) => item.profile.name)).toEqual([
      'Bea',
      'Cleo',
      'Anna',
    ]);
    const listed = [newer, older];
    expect(withOpenConversation(listed, opened(1, 'Anna', older.conversation.last_activity))).toBe(listed);
    expect(withOpenConversation(listed, null)).toBe(listed);
  });

  it('shows the new matches row, and the open new match marked as the current one, saying hello comes next', async () => {
    const cleo = opened(3, 'Cleo', '2026-03-04T10:00:00.000Z');
    renderShell(
      <ChatSidebar
        chats={withOpenConversation([], cleo)}
        matches={[profileFixture(4, { name: 'Dana' })]}
        activeId={cleo.conversation.id}
      />,
      { user: testUser() },
    );
    const row = await screen.findByTestId('new-matches');
    expect(within(row).getByRole('link', { name: 'Dana' }).getAttribute('href')).toBe('/members/4/chat');
    const list = screen.getByTestId('chat-list');
    const current = within(list).getByRole('link', { current: 'page' });
    expect(current.textContent).toContain('Cleo');
    expect(current.textContent).toContain('No messages yet – say hello!');
  });
});
