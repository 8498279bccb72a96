import { describe, expect, it, vi } from 'vitest';
import { typedApi } from './api.ts';

// The contract's chunk cannot be fetched (offline before the page's first call, or a deploy
// replaced the chunk): the import rejects.
vi.mock('./api-contract.ts', () => {
  throw new Error('Failed to fetch dynamically imported module');
});

describe('typed client without its contract chunk', () => {
  it('answers network_error like any call that never left, and sends nothing', async () => {
    const transport = vi.fn();
    const answer = await typedApi(transport)('GET /api/counts.php');
    expect(answer).toMatchObject({ ok: false, status: 0, code: 'network_error' });
    expect(transport).not.toHaveBeenCalled();
    // Not kept: the next call tries to load it again.
    expect(await typedApi(transport)('GET /api/counts.php')).toMatchObject({ code: 'network_error' });
  });
});
