// @vitest-environment happy-dom
import { describe, expect, it, vi } from 'vitest';
import { loadSchemasInSteps } from './schemas-in-steps.ts';

describe('loadSchemasInSteps', () => {
  it('gives the browser a task between zod and each group of schemas, once per page', async () => {
    const timeout = vi.spyOn(globalThis, 'setTimeout');
    await loadSchemasInSteps();
    const turns = timeout.mock.calls.filter(([, delay]) => delay === 0);
    expect(turns).toHaveLength(4);
    await loadSchemasInSteps();
    expect(timeout.mock.calls.filter(([, delay]) => delay === 0)).toHaveLength(4);
    timeout.mockRestore();
  });
});
