import { EventEmitter } from 'node:events';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { HeartbeatSweep, heartbeatGroups, heartbeatMs } from './heartbeat.ts';

class FakeSocket extends EventEmitter {
  pings = 0;
  terminated = false;
  /** Whether it answers pings. */
  constructor(readonly answers = true) {
    super();
  }
  ping() {
    this.pings++;
    if (this.answers) queueMicrotask(() => this.emit('pong'));
  }
  terminate() {
    this.terminated = true;
  }
}

afterEach(() => {
  vi.useRealTimers();
});

describe('heartbeat sweep', () => {
  it('runs one timer for all sockets, pings each once a period, spread over it, and reports members in batches', async () => {
    vi.useFakeTimers();
    const batches: number[][] = [];
    const sweep = new HeartbeatSweep<FakeSocket>((ids) => batches.push(ids));
    const sockets = Array.from({ length: 100 }, () => new FakeSocket());
    sockets.forEach((socket, index) => {
      sweep.add(socket, 1000 + (index % 40));
    });
    expect(vi.getTimerCount()).toBe(1);
    expect(sockets.every((socket) => socket.listenerCount('pong') === 1)).toBe(true);

    const tick = heartbeatMs / heartbeatGroups;
    let pinged = 0;
    for (let i = 0; i < heartbeatGroups; i++) {
      await vi.advanceTimersByTimeAsync(tick);
      const now = sockets.filter((socket) => socket.pings === 1).length;
      // Jittered: a share of the sockets per tick, never all at once.
      expect(now - pinged).toBeLessThan(30);
      pinged = now;
    }
    expect(sockets.every((socket) => socket.pings === 1)).toBe(true);
    expect(batches.length).toBeGreaterThan(heartbeatGroups / 2);
    expect(batches.length).toBeLessThanOrEqual(heartbeatGroups);
    expect(new Set(batches.flat())).toEqual(new Set(Array.from({ length: 40 }, (_, i) => 1000 + i)));
    expect(sockets.some((socket) => socket.terminated)).toBe(false);
    sweep.stop();
  });

  it('closes a socket that did not answer the previous ping, and forgets removed sockets', async () => {
    vi.useFakeTimers();
    const sweep = new HeartbeatSweep<FakeSocket>(() => undefined);
    const silent = new FakeSocket(false);
    const gone = new FakeSocket();
    sweep.add(silent, 1);
    sweep.add(gone, 2);
    sweep.remove(gone);
    expect(sweep.size).toBe(1);
    await vi.advanceTimersByTimeAsync(heartbeatMs);
    expect(silent.terminated).toBe(false);
    await vi.advanceTimersByTimeAsync(heartbeatMs);
    expect(silent.terminated).toBe(true);
    expect(sweep.size).toBe(0);
    expect(gone.pings).toBe(0);
    sweep.stop();
    expect(vi.getTimerCount()).toBe(0);
  });
});
