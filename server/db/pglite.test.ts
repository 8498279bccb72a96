import v8 from 'node:v8';
import { afterEach, describe, expect, it, vi } from 'vitest';

describe('the embedded database (decision 024)', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('raises the WebAssembly tiering budget once, before the first database opens, and works', async () => {
    const setFlags = vi.spyOn(v8, 'setFlagsFromString');
    vi.resetModules();
    const { createPglite, tuneWasmTiering } = await import('./pglite.ts');
    const database = await createPglite();
    try {
      tuneWasmTiering();
      expect(setFlags.mock.calls).toEqual([['--wasm-tiering-budget=1000000000']]);
      const { rows } = await database.query<{ sum: number }>('select 40 + 2 as sum');
      expect(rows).toEqual([{ sum: 42 }]);
    } finally {
      await database.close();
    }
  });
});
