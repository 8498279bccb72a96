import { describe, expect, it } from 'vitest';
import { dropIndex, moveItem } from './photo-order.ts';

describe('moveItem', () => {
  it('moves one item and keeps the others in order', () => {
    expect(moveItem([1, 2, 3, 4], 3, 0)).toEqual([4, 1, 2, 3]);
    expect(moveItem([1, 2, 3, 4], 0, 2)).toEqual([2, 3, 1, 4]);
  });
  it('leaves the list as it is for the same place or a place outside it', () => {
    expect(moveItem([1, 2, 3], 1, 1)).toEqual([1, 2, 3]);
    expect(moveItem([1, 2, 3], 1, 3)).toEqual([1, 2, 3]);
    expect(moveItem([1, 2, 3], -1, 0)).toEqual([1, 2, 3]);
  });
});

describe('dropIndex', () => {
  // Three tiles of 100 px in a row with 10 px gaps.
  const boxes = [0, 110, 220].map((left) => ({ left, right: left + 100, top: 0, bottom: 100 }));
  it('is the tile under the point', () => {
    expect(dropIndex(boxes, 250, 50)).toBe(2);
    expect(dropIndex(boxes, 5, 5)).toBe(0);
  });
  it('is the nearest tile for a point in a gap or beyond the grid', () => {
    expect(dropIndex(boxes, 108, 50)).toBe(1);
    expect(dropIndex(boxes, 400, 300)).toBe(2);
  });
  it('is null without tiles', () => {
    expect(dropIndex([], 10, 10)).toBeNull();
  });
});
