import { describe, expect, it } from 'vitest';
import { TtlCache } from './ttl-cache.ts';

describe('the one cache', () => {
  it('lets expired entries go as new ones come, so it holds only the last time to live', () => {
    let now = 0;
    const cache = new TtlCache<{ n: number }>(1000, { maxEntries: 10_000 }, () => now);
    for (let n = 0; n < 500; n++) cache.set(`k${n}`, { n });
    now = 1500;
    cache.set('late', { n: -1 });
    expect(cache.size).toBe(1);
  });

  const clockAt = (start = 1_000_000) => {
    let now = start;
    return {
      now: () => now,
      advance(ms: number) {
        now += ms;
      },
    };
  };

  it('keeps an entry for its time to live, by the clock it is given', () => {
    const clock = clockAt();
    const cache = new TtlCache<{ n: number }>(1000, { maxEntries: 10 }, clock.now);
    cache.set('a', { n: 1 });
    clock.advance(999);
    expect(cache.get('a')).toEqual({ n: 1 });
    clock.advance(2);
    expect(cache.get('a')).toBeUndefined();
  });

  it('is off with a time to live of 0: it keeps nothing', () => {
    const cache = new TtlCache<{ n: number }>(0, { maxEntries: 10 });
    cache.set('a', { n: 1 });
    expect(cache.enabled).toBe(false);
    expect(cache.get('a')).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('drops the oldest past its entries or bytes, and never keeps an entry too large', () => {
    const counted = new TtlCache<{ n: number }>(60_000, { maxEntries: 2 });
    counted.set('a', { n: 1 });
    counted.set('b', { n: 2 });
    counted.set('a', { n: 1 });
    counted.set('c', { n: 3 });
    expect([counted.get('a'), counted.get('b'), counted.get('c')]).toEqual([{ n: 1 }, undefined, { n: 3 }]);

    const sized = new TtlCache<{ body: string }>(60_000, {
      maxBytes: 100,
      maxEntryBytes: 50,
      sizeOf: (value) => value.body.length,
    });
    sized.set('big', { body: 'x'.repeat(60) });
    expect(sized.get('big')).toBeUndefined();
    sized.set('one', { body: 'x'.repeat(40) });
    sized.set('two', { body: 'x'.repeat(40) });
    sized.set('three', { body: 'x'.repeat(40) });
    expect(sized.get('one')).toBeUndefined();
    expect(sized.size).toBe(80);
  });

  it("drops a group's entries together and keeps the others", () => {
    const cache = new TtlCache<{ n: number }>(60_000, { maxEntries: 10 });
    cache.set('t1', { n: 1 }, { group: 7 });
    cache.set('t2', { n: 2 }, { group: 7 });
    cache.set('t3', { n: 3 }, { group: 8 });
    cache.dropGroup(7);
    expect([cache.get('t1'), cache.get('t2'), cache.get('t3')]).toEqual([undefined, undefined, { n: 3 }]);
  });

  it('updates a group in place, keeping its time to live', () => {
    const clock = clockAt();
    const cache = new TtlCache<{ n: number }>(1000, { maxEntries: 10 }, clock.now);
    cache.set('t1', { n: 1 }, { group: 7 });
    clock.advance(600);
    cache.updateGroup(7, (value) => ({ n: value.n + 10 }));
    expect(cache.get('t1')).toEqual({ n: 11 });
    clock.advance(500);
    expect(cache.get('t1')).toBeUndefined();
    // An updated entry is still in its group.
    cache.set('t2', { n: 2 }, { group: 9 });
    cache.updateGroup(9, (value) => ({ n: value.n + 1 }));
    cache.dropGroup(9);
    expect(cache.get('t2')).toBeUndefined();
  });

  it('never stores a read that started before a drop', () => {
    const cache = new TtlCache<{ n: number }>(60_000, { maxEntries: 10 });
    const before = cache.mark();
    cache.dropGroup(7);
    cache.set('t1', { n: 1 }, { group: 7, mark: before });
    expect(cache.get('t1')).toBeUndefined();
    cache.set('t1', { n: 1 }, { group: 7, mark: cache.mark() });
    expect(cache.get('t1')).toEqual({ n: 1 });
  });
});
