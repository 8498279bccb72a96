import { describe, expect, it } from 'vitest';
import { mapTwoAtATime } from './demo.media.ts';

describe('demo photos are made two at a time', () => {
  it('never runs more than two at once, and keeps the order', async () => {
    let running = 0;
    let most = 0;
    const results = await mapTwoAtATime([5, 1, 4, 2, 3, 0, 6], async (delay) => {
      running++;
      most = Math.max(most, running);
      await new Promise((resolve) => setTimeout(resolve, delay));
      running--;
      return delay * 10;
    });
    expect(most).toBe(2);
    expect(results).toEqual([50, 10, 40, 20, 30, 0, 60]);
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
