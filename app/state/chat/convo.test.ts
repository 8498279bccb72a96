import { describe, expect, it, vi } from 'vitest';
import type { Message } from '#contract/chats.ts';
import {
  ConvoController,
  type ConvoDeps,
  type ConvoState,
  type Draft,
  initialConvo,
  newClientId,
  reduce,
  type SendOutcome,
} from './convo.ts';

const at = '2026-11-23T12:00:00.000Z';
const message = (id: number, extra: Partial<Message> = {}): Message => ({
  id,
  conversation: 7,
  mine: true,
  kind: 'text',
  text: `m${id}`,
  photo: null,
  gift: null,
  credits: 0,
  created_at: at,
  ...extra,
});
const hello: Draft = { kind: 'text', text: 'hello' };
const start = (status: ConvoState['status'] = 'ready'): ConvoState => ({
  ...initialConvo({ conversation: 7, messages: [message(1), message(2)], hasOlder: true, readUpTo: 1 }),
  status,
});
const states = (state: ConvoState) => state.items.map((item) => item.state);

describe('the conversation reducer', () => {
  it('starts connecting with the loaded messages as sent, oldest first', () => {
    const state = initialConvo({
      conversation: 7,
      messages: [message(2), message(1)],
      hasOlder: false,
      readUpTo: 0,
    });
    expect(state.status).toBe('connecting');
    expect(state.items.map((item) => item.key)).toEqual(['m1', 'm2']);
  });

  it('moves between connection states and keeps the same state object for a repeat', () => {
    const ready = reduce(start('connecting'), { type: 'connection', status: 'ready' });
    expect(ready.status).toBe('ready');
    expect(reduce(ready, { type: 'connection', status: 'ready' })).toBe(ready);
    expect(reduce(ready, { type: 'connection', status: 'reconnecting' }).status).toBe('reconnecting');
    expect(reduce(ready, { type: 'connection', status: 'offline' }).status).toBe('offline');
  });

  it('send adds a pending message; a second send with the same client id adds nothing', () => {
    const sent = reduce(start(), { type: 'send', clientId: 'c1', draft: hello, at });
    expect(states(sent)).toEqual(['sent', 'sent', 'pending']);
    expect(reduce(sent, { type: 'send', clientId: 'c1', draft: hello, at })).toBe(sent);
  });

  it('offline, send shows the message failed at once (never silently kept)', () => {
    const state = reduce(start('offline'), { type: 'send', clientId: 'c1', draft: hello, at });
    expect(state.items.at(-1)).toMatchObject({ state: 'failed', reason: 'offline', draft: hello });
  });

  it('pending → sent replaces the pending item by the message, in id order', () => {
    const pending = reduce(start(), { type: 'send', clientId: 'c1', draft: hello, at });
    const sent = reduce(pending, { type: 'sent', clientId: 'c1', message: message(3, { client_id: 'c1' }) });
    expect(states(sent)).toEqual(['sent', 'sent', 'sent']);
    expect(sent.items.at(-1)).toMatchObject({ key: 'm3' });
  });

  it('pending → failed keeps the draft and the reason', () => {
    const pending = reduce(start(), { type: 'send', clientId: 'c1', draft: hello, at });
    const failed = reduce(pending, { type: 'failed', clientId: 'c1', reason: 'insufficient_credits' });
    expect(failed.items.at(-1)).toMatchObject({
      state: 'failed',
      reason: 'insufficient_credits',
      draft: hello,
    });
  });

  it('failed → pending on retry with the same client id, but not while offline', () => {
    const failed = reduce(reduce(start(), { type: 'send', clientId: 'c1', draft: hello, at }), {
      type: 'failed',
      clientId: 'c1',
      reason: 'offline',
    });
    expect(reduce(failed, { type: 'retry', clientId: 'c1' }).items.at(-1)).toMatchObject({
      state: 'pending',
      clientId: 'c1',
    });
    const offline = reduce(failed, { type: 'connection', status: 'offline' });
    expect(reduce(offline, { type: 'retry', clientId: 'c1' })).toBe(offline);
  });

  it('discard removes a failed message only', () => {
    const pending = reduce(start(), { type: 'send', clientId: 'c1', draft: hello, at });
    expect(reduce(pending, { type: 'discard', clientId: 'c1' }).items).toHaveLength(3);
    const failed = reduce(pending, { type: 'failed', clientId: 'c1', reason: 'rejected', detail: 'no' });
    expect(reduce(failed, { type: 'discard', clientId: 'c1' }).items).toHaveLength(2);
  });

  it('received merges new messages once and settles a waiting item carrying its client id', () => {
    const pending = reduce(start(), { type: 'send', clientId: 'c1', draft: hello, at });
    const received = reduce(pending, {
      type: 'received',
      messages: [message(2), message(3, { client_id: 'c1' }), message(4, { mine: false })],
    });
    expect(received.items.map((item) => item.key)).toEqual(['m1', 'm2', 'm3', 'm4']);
  });

  it('older prepends a page and updates has_older', () => {
    const older = reduce(start(), { type: 'older', messages: [message(0)], hasOlder: false });
    expect(older.items[0]).toMatchObject({ key: 'm0' });
    expect(older.hasOlder).toBe(false);
  });

  it('read moves the read receipts forward only', () => {
    const read = reduce(start(), { type: 'read', upTo: 2 });
    expect(read.readUpTo).toBe(2);
    expect(reduce(read, { type: 'read', upTo: 1 })).toBe(read);
  });

  it('held turns a pending photo into one in review; reviewed takes it away', () => {
    const file = new Blob(['x'], { type: 'image/jpeg' });
    const pending = reduce(start(), {
      type: 'send',
      clientId: 'p1',
      draft: { kind: 'upload', file, preview: 'blob:p1' },
      at,
    });
    const photo = { id: 5, conversation: 7, thumb_filename: '/t.jpg', credits: 2, created_at: at };
    const held = reduce(pending, { type: 'held', clientId: 'p1', photo });
    expect(states(held)).toEqual(['sent', 'sent']);
    expect(held.inReview).toEqual([photo]);
    expect(reduce(held, { type: 'held', clientId: 'p1', photo }).inReview).toHaveLength(1);
    expect(reduce(held, { type: 'reviewed', id: 5 }).inReview).toEqual([]);
    expect(reduce(held, { type: 'reviewed', id: 6 })).toBe(held);
  });
});

function harness(status: ConvoState['status'] = 'ready') {
  const sends: { draft: Draft; clientId: string; resolve: (outcome: SendOutcome) => void }[] = [];
  let ids = 0;
  const deps: ConvoDeps = {
    send: (draft, clientId) => new Promise((resolve) => sends.push({ draft, clientId, resolve })),
    fetchAfter: vi.fn(async () => []),
    fetchBefore: vi.fn(async () => ({ messages: [message(0)], hasOlder: false })),
    newClientId: () => `c${++ids}`,
    now: () => new Date(at),
  };
  const controller = new ConvoController(start(status), deps);
  return { controller, sends, deps };
}
/** Waits until the controller's state shows `expected` (outcomes and fetches settle in promises). */
const settled = (controller: ConvoController, expected: (state: ConvoState) => void) =>
  vi.waitFor(() => expected(controller.getState()));
const allSent = (state: ConvoState) => expect(states(state)).toEqual(['sent', 'sent', 'sent']);
const lastFailed = (state: ConvoState) => expect(state.items.at(-1)).toMatchObject({ state: 'failed' });

describe('the conversation controller', () => {
  it('offers only the actions a state allows', () => {
    const ready = harness('ready').controller.getView();
    expect(ready.status === 'ready' && typeof ready.loadOlder).toBe('function');
    const offline = harness('offline').controller.getView();
    expect(offline.status).toBe('offline');
    expect('retry' in offline).toBe(false);
    expect('loadOlder' in offline).toBe(false);
    const reconnecting = harness('reconnecting').controller.getView();
    expect('retry' in reconnecting).toBe(true);
    expect('loadOlder' in reconnecting).toBe(false);
  });

  it('sends a pending message once and marks it sent', async () => {
    const { controller, sends } = harness();
    controller.getView().send(hello);
    expect(sends).toHaveLength(1);
    sends[0]?.resolve({ ok: true, message: message(3, { client_id: 'c1' }), credits: 5, warning: null });
    await settled(controller, allSent);
  });

  it('a reconnect while a message is on its way sends nothing twice', async () => {
    const { controller, sends, deps } = harness();
    controller.getView().send(hello);
    controller.dispatch({ type: 'connection', status: 'reconnecting' });
    controller.dispatch({ type: 'connection', status: 'ready' });
    controller.dispatch({ type: 'connection', status: 'reconnecting' });
    controller.dispatch({ type: 'connection', status: 'ready' });
    expect(sends).toHaveLength(1);
    expect(deps.fetchAfter).toHaveBeenCalledTimes(2);
    sends[0]?.resolve({ ok: true, message: message(3, { client_id: 'c1' }), credits: 5, warning: null });
    // The outcome is handled in one step: once the message shows sent, a second send would be there.
    await settled(controller, allSent);
    expect(sends).toHaveLength(1);
  });

  it('a catch-up that brings the message settles it without sending again', async () => {
    const { controller, sends, deps } = harness();
    controller.getView().send(hello);
    sends[0]?.resolve({ ok: false, reason: 'offline', detail: null });
    await settled(controller, lastFailed);
    vi.mocked(deps.fetchAfter).mockResolvedValueOnce([message(3, { client_id: 'c1' })]);
    controller.dispatch({ type: 'connection', status: 'reconnecting' });
    controller.dispatch({ type: 'connection', status: 'ready' });
    await settled(controller, allSent);
    expect(sends).toHaveLength(1);
  });

  it('retry sends again with the same client id (the idempotency key), once', async () => {
    const { controller, sends } = harness();
    controller.getView().send(hello);
    sends[0]?.resolve({ ok: false, reason: 'offline', detail: null });
    await settled(controller, lastFailed);
    const view = controller.getView();
    if (view.status === 'offline') throw new Error('unexpected');
    view.retry('c1');
    // A second tap while the retry is on its way sends nothing more.
    controller.dispatch({ type: 'retry', clientId: 'c1' });
    expect(sends.map((send) => send.clientId)).toEqual(['c1', 'c1']);
    sends[1]?.resolve({ ok: true, message: message(3, { client_id: 'c1' }), credits: 5, warning: null });
    await settled(controller, allSent);
  });

  it('offline → failed; back online → retry → sent once', async () => {
    const { controller, sends } = harness('offline');
    controller.getView().send(hello);
    expect(sends).toHaveLength(0);
    expect(controller.getState().items.at(-1)).toMatchObject({ state: 'failed', reason: 'offline' });
    controller.dispatch({ type: 'connection', status: 'ready' });
    expect(sends).toHaveLength(0);
    const view = controller.getView();
    if (view.status !== 'ready') throw new Error('unexpected');
    view.retry('c1');
    expect(sends).toHaveLength(1);
    sends[0]?.resolve({ ok: true, message: message(3, { client_id: 'c1' }), credits: 5, warning: null });
    await settled(controller, allSent);
  });

  it('tells the screen about a balance after sending and about a refusal', async () => {
    const onSent = vi.fn();
    const onFailed = vi.fn();
    const sends: ((outcome: SendOutcome) => void)[] = [];
    const controller = new ConvoController(start(), {
      send: () => new Promise((resolve) => sends.push(resolve)),
      fetchAfter: async () => [],
      fetchBefore: async () => null,
      newClientId,
      now: () => new Date(at),
      onSent,
      onFailed,
    });
    controller.getView().send(hello);
    controller.getView().send({ kind: 'gift', gift: 1 });
    sends[0]?.({ ok: true, message: message(3), credits: 4, warning: null });
    sends[1]?.({ ok: false, reason: 'insufficient_credits', detail: 'Not enough credits' });
    await vi.waitFor(() => {
      expect(onSent).toHaveBeenCalledWith(expect.objectContaining({ credits: 4 }));
      expect(onFailed).toHaveBeenCalledWith('insufficient_credits', { kind: 'gift', gift: 1 });
    });
  });

  it('loads an older page in the ready state', async () => {
    const { controller, deps } = harness();
    const view = controller.getView();
    if (view.status !== 'ready') throw new Error('unexpected');
    view.loadOlder();
    expect(deps.fetchBefore).toHaveBeenCalledWith(1);
    await settled(controller, (state) => expect(state.items[0]).toMatchObject({ key: 'm0' }));
  });

  it('makes URL-safe client ids the API accepts', () => {
    expect(newClientId()).toMatch(/^[A-Za-z0-9_-]{8,64}$/);
    expect(newClientId()).not.toBe(newClientId());
  });
});
