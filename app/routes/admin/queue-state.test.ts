import { describe, expect, it } from 'vitest';
import type { InboxItem } from '#contract/admin.ts';
import { applyQueueEvent, type QueueState, type QueueView } from './queue-state.ts';

const now = Date.parse('2026-12-01T12:00:00Z');

/** A queue row with only what the order and the filters read filled in for real. */
function row(
  id: number,
  waitedMinutes: number,
  value: { credits?: number; paid?: boolean; spent?: number } = {},
  extra: Partial<InboxItem> = {},
): InboxItem {
  return {
    id,
    site: { id: 1, name: 'Site' },
    member_language: 'en',
    member_value: {
      credits: value.credits ?? 0,
      paid_user: value.paid ?? false,
      spent_cents_30d: value.spent ?? 0,
    },
    waiting_since: new Date(now - waitedMinutes * 60_000).toISOString(),
    claimed_by: null,
    claim_expires_at: null,
    ...extra,
  } as InboxItem;
}

const view: QueueView = { order: 'value', site: null, language: null, now };
const ids = (state: QueueState) => ({
  waiting: state.conversations.map((item) => item.id),
  claimed: state.claimed.map((item) => item.id),
});

describe('the console’s live queue', () => {
  const start: QueueState = {
    conversations: [row(1, 10, { credits: 5, paid: true }), row(2, 30), row(3, 5)],
    claimed: [],
    nextCursor: null,
  };

  it('puts an added row where the server would, and updates it in place of the old one', () => {
    const added = applyQueueEvent(
      start,
      { type: 'inbox', op: 'add', conversation: row(4, 20, { credits: 1, paid: true }) },
      view,
    );
    expect(ids(added).waiting).toEqual([4, 1, 2, 3]);
    const updated = applyQueueEvent(
      added,
      { type: 'inbox', op: 'update', conversation: row(2, 30, { credits: 9, paid: true }) },
      view,
    );
    expect(ids(updated).waiting).toEqual([2, 4, 1, 3]);
    expect(updated.conversations[0]!.member_value.credits).toBe(9);
  });

  it('leaves out rows the filters do not show, and rows past the loaded page', () => {
    const otherSite = row(5, 60, {}, { site: { id: 2, name: 'Other' } });
    expect(
      ids(applyQueueEvent(start, { type: 'inbox', op: 'add', conversation: otherSite }, { ...view, site: 1 }))
        .waiting,
    ).toEqual([1, 2, 3]);
    const paged = { ...start, nextCursor: 'v.1.0.0.3' };
    expect(
      ids(applyQueueEvent(paged, { type: 'inbox', op: 'add', conversation: row(6, 1) }, view)).waiting,
    ).toEqual([1, 2, 3]);
    expect(
      ids(applyQueueEvent(paged, { type: 'inbox', op: 'add', conversation: row(7, 40) }, view)).waiting,
    ).toEqual([1, 7, 2, 3]);
  });

  it('moves a row to the claimed list and back with the claim, and drops it when it leaves the queue', () => {
    const claimedBy = { id: 9, name: 'Olivia' };
    const claimed = applyQueueEvent(
      start,
      {
        type: 'claim',
        conversation: 2,
        claimed_by: claimedBy,
        claim_expires_at: new Date(now + 300_000).toISOString(),
      },
      view,
    );
    expect(ids(claimed)).toEqual({ waiting: [1, 3], claimed: [2] });
    expect(claimed.claimed[0]!.claimed_by).toEqual(claimedBy);
    const released = applyQueueEvent(
      claimed,
      { type: 'claim', conversation: 2, claimed_by: null, claim_expires_at: null },
      view,
    );
    expect(ids(released)).toEqual({ waiting: [1, 2, 3], claimed: [] });
    const removed = applyQueueEvent(claimed, { type: 'inbox', op: 'remove', conversation: { id: 2 } }, view);
    expect(ids(removed)).toEqual({ waiting: [1, 3], claimed: [] });
    // Oldest first, the value does not count.
    const oldest = applyQueueEvent(
      { ...start, conversations: [row(2, 30), row(1, 10), row(3, 5)] },
      { type: 'inbox', op: 'add', conversation: row(8, 20, { credits: 5, paid: true }) },
      { ...view, order: 'oldest' },
    );
    expect(ids(oldest).waiting).toEqual([2, 8, 1, 3]);
  });
});
