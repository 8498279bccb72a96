import { describe, expect, it, vi } from 'vitest';
import { mapTwoAtATime } from './demo.media.ts';

describe('demo photos are made two at a time', () => {
  it('never runs more than two at once, and keeps the order', async () => {
    // Each item takes its value in (fake) milliseconds, so the lanes finish out of order.
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    try {
      let running = 0;
      let most = 0;
      const done = mapTwoAtATime([5, 1, 4, 2, 3, 0, 6], async (delay) => {
        running++;
        most = Math.max(most, running);
        await new Promise((resolve) => setTimeout(resolve, delay));
        running--;
        return delay * 10;
      });
      await vi.runAllTimersAsync();
      const results = await done;
      expect(most).toBe(2);
      expect(results).toEqual([50, 10, 40, 20, 30, 0, 60]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('stops at the first failure', async () => {
    await expect(
      mapTwoAtATime([1, 2, 3], async (value) => {
        if (value === 2) throw new Error('no pixels');
        return value;
      }),
    ).rejects.toThrow('no pixels');
  });
});
