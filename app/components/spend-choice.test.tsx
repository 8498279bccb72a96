// @vitest-environment happy-dom
import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadContract } from '#app/lib/api.ts';
import { renderShell, testUser } from '../../tests/setup/render-shell.tsx';
import { IcebreakerModal } from './icebreaker-modal.tsx';
import { SpendChoice } from './spend-choice.tsx';

// The typed client loads the contract with its first call; loaded here, calls go out at once
// and the fake timers below count them as the page would.
beforeAll(() => loadContract());

const gifts = [
  { id: 1, name: 'Rose', credits: 3 },
  { id: 2, name: 'Heart', credits: 1 },
];

describe('spending credits takes two taps', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('shows the cost on each control; the first tap only selects, the second spends once', async () => {
    const onSpend = vi.fn();
    renderShell(
      <SpendChoice
        label="Send a gift"
        options={gifts}
        keyOf={(gift) => gift.id}
        costOf={(gift) => gift.credits}
        renderOption={(gift) => gift.name}
        onSpend={onSpend}
      />,
    );
    const rose = await screen.findByRole('button', { name: /Rose/ });
    expect(rose.textContent).toContain('3 credits');
    expect(screen.getByRole('button', { name: /Heart/ }).textContent).toContain('1 credit');
    expect(screen.getByRole('button', { name: /Heart/ }).textContent).not.toContain('1 credits');

    fireEvent.click(rose);
    expect(onSpend).not.toHaveBeenCalled();
    expect(rose.getAttribute('aria-pressed')).toBe('true');
    const confirm = screen.getByRole('button', { name: 'Send for 3 credits' });

    fireEvent.click(screen.getByRole('button', { name: /Heart/ }));
    expect(onSpend).not.toHaveBeenCalled();
    expect(screen.queryByRole('button', { name: 'Send for 3 credits' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Send for 1 credit' }));
    expect(onSpend).toHaveBeenCalledTimes(1);
    expect(onSpend).toHaveBeenCalledWith(gifts[1]);
    expect(confirm.isConnected).toBe(false);
  });

  it('lets the member back out after the first tap without spending', async () => {
    const onSpend = vi.fn();
    renderShell(
      <SpendChoice
        label="Send a photo"
        options={gifts}
        keyOf={(gift) => gift.id}
        costOf={() => 2}
        renderOption={(gift) => gift.name}
        onSpend={onSpend}
      />,
    );
    fireEvent.click(await screen.findByRole('button', { name: /Rose/ }));
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('button', { name: 'Send for 2 credits' })).toBeNull();
    expect(onSpend).not.toHaveBeenCalled();
  });

  describe('the icebreaker modal', () => {
    let fetchMock: ReturnType<typeof vi.fn>;
    const answer = (status: number, body: unknown) =>
      new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
    const mockApi = (freeLeft: number) => {
      fetchMock = vi.fn(async (url: string) =>
        String(url).startsWith('/api/message-costs.php')
          ? answer(200, {
              message: 5,
              photo: 10,
              gift: 20,
              free_messages_left: freeLeft,
              minimum_message_cost: null,
            })
          : // The chat call is refused (no credits left), so the modal stays and nothing navigates.
            answer(402, { error: 'insufficient_credits', message: 'You do not have enough credits' }),
      );
      vi.stubGlobal('fetch', fetchMock);
    };
    const chatCalls = () =>
      fetchMock.mock.calls.filter(([url]) => String(url).startsWith('/api/chat.php')).length;
    const profile = { id: 77, name: 'Mila' } as Parameters<typeof IcebreakerModal>[0]['profile'];

    it('sends an opening line only after the confirming tap that names its cost', async () => {
      mockApi(0);
      renderShell(<IcebreakerModal profile={profile} onClose={() => undefined} />, {
        user: testUser(),
        settings: { message_credits: 5 },
      });
      await screen.findAllByText('5 credits');
      const lines = screen
        .getAllByRole('button', { pressed: false })
        .filter((button) => button.textContent?.includes('5 credits'));
      expect(lines.length).toBeGreaterThan(1);
      fireEvent.click(lines[0]!);
      await act(async () => undefined);
      expect(chatCalls()).toBe(0);
      await act(async () => {
        fireEvent.click(screen.getByRole('button', { name: 'Send for 5 credits' }));
      });
      expect(chatCalls()).toBe(1);
      expect((await screen.findByRole('alert')).textContent).toContain('enough credits');
    });

    it('says "free" while the member has free messages left', async () => {
      mockApi(2);
      renderShell(<IcebreakerModal profile={profile} onClose={() => undefined} />, {
        user: testUser(),
        settings: { message_credits: 5 },
      });
      const free = await screen.findAllByText('Free');
      fireEvent.click(free[0]!.closest('button')!);
      expect(chatCalls()).toBe(0);
      expect(screen.getByRole('button', { name: 'Send for free' })).toBeTruthy();
    });
  });
});
