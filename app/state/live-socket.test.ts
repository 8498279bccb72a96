// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { LiveEvent } from '#contract/live.ts';
import { LiveSocket } from './live-socket.ts';

/** A stand-in for the browser's WebSocket: records what was opened and lets the test push frames. */
class FakeWebSocket {
  static OPEN = 1;
  static opened: FakeWebSocket[] = [];
  readyState = 0;
  onmessage: ((message: { data: string }) => void) | null = null;
  onclose: ((event: { code: number }) => void) | null = null;
  constructor(readonly url: string) {
    FakeWebSocket.opened.push(this);
  }
  close() {
    this.onclose?.({ code: 1000 });
  }
  send() {}
}

afterEach(() => {
  FakeWebSocket.opened = [];
  vi.unstubAllGlobals();
});

describe('LiveSocket', () => {
  it('opens once the frames parser has loaded, and hands on checked frames only', async () => {
    vi.stubGlobal('WebSocket', FakeWebSocket);
    const live = new LiveSocket('ws://site.test/api/ws');
    const events: LiveEvent[] = [];
    const statuses: string[] = [];
    live.subscribe((event) => events.push(event));
    live.onStatus((status) => statuses.push(status));
    live.start();
    // Connecting from the start, before the parser has loaded and the socket exists.
    expect(statuses).toEqual(['connecting']);
    expect(FakeWebSocket.opened).toHaveLength(0);
    await vi.waitFor(() => expect(FakeWebSocket.opened).toHaveLength(1));
    const socket = FakeWebSocket.opened[0];
    socket?.onmessage?.({ data: JSON.stringify({ type: 'ready' }) });
    socket?.onmessage?.({ data: JSON.stringify({ type: 'credits', credits: 'many' }) });
    socket?.onmessage?.({ data: 'not json' });
    expect(events).toEqual([{ type: 'ready' }]);
    expect(live.status).toBe('ready');
    expect(statuses).toEqual(['connecting', 'ready']);
    live.stop();
  });

  it('opens nothing when stopped before the parser came, and only one socket for two starts', async () => {
    vi.stubGlobal('WebSocket', FakeWebSocket);
    const stopped = new LiveSocket('ws://site.test/api/ws');
    stopped.start();
    stopped.stop();
    const twice = new LiveSocket('ws://site.test/api/ws');
    twice.start();
    twice.start();
    // Started last, so it opens after any socket the starts above would open (each waits for the one
    // parser, in the order they started).
    const last = new LiveSocket('ws://site.test/last');
    last.start();
    await vi.waitFor(() =>
      expect(FakeWebSocket.opened.map((socket) => socket.url)).toContain('ws://site.test/last'),
    );
    expect(FakeWebSocket.opened.map((socket) => socket.url)).toEqual([
      'ws://site.test/api/ws',
      'ws://site.test/last',
    ]);
    twice.stop();
    last.stop();
  });
});
