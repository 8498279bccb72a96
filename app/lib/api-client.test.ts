import { describe, expect, it, vi } from 'vitest';
import { ApiError, apiFetch, maxRetries, onAuthenticationRequired, retryDelayMs } from './api-client.ts';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

describe('API client', () => {
  it('retries a failing idempotent call up to 5 times with exponential delay', async () => {
    const fetchImpl = vi.fn<typeof fetch>().mockRejectedValue(new TypeError('network down'));
    const sleep = vi.fn(async (_ms: number) => undefined);
    await expect(apiFetch('/api/settings.php', { fetchImpl, sleep })).rejects.toThrow('network down');
    expect(fetchImpl).toHaveBeenCalledTimes(1 + maxRetries);
    expect(sleep.mock.calls.map(([ms]) => ms)).toEqual([250, 500, 1000, 2000, 4000]);
    expect(retryDelayMs(4)).toBe(4000);
  });

  it('succeeds when a retry gets through', async () => {
    const fetchImpl = vi
      .fn<typeof fetch>()
      .mockResolvedValueOnce(json(503, { error: 'internal_error', message: 'x' }))
      .mockResolvedValueOnce(json(200, { ok: true }));
    await expect(apiFetch('/api/chats.php', { fetchImpl, sleep: async () => undefined })).resolves.toEqual({
      ok: true,
    });
    expect(fetchImpl).toHaveBeenCalledTimes(2);
  });

  it('never repeats a POST, which could send a message twice', async () => {
    const fetchImpl = vi
      .fn<typeof fetch>()
      .mockResolvedValue(json(503, { error: 'internal_error', message: 'x' }));
    await expect(apiFetch('/api/chat.php', { method: 'POST', body: {}, fetchImpl })).rejects.toBeInstanceOf(
      ApiError,
    );
    expect(fetchImpl).toHaveBeenCalledTimes(1);
  });

  it('does not retry a client error and hands on the contract error', async () => {
    const fetchImpl = vi
      .fn<typeof fetch>()
      .mockResolvedValue(json(402, { error: 'insufficient_credits', message: 'no', required: 2 }));
    const error = await apiFetch('/api/chat.php', { fetchImpl }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe('insufficient_credits');
    expect(fetchImpl).toHaveBeenCalledTimes(1);
  });

  it('marks user.php requests with the client request-type header', async () => {
    const fetchImpl = vi.fn<typeof fetch>().mockImplementation(async () => json(200, { user: null }));
    await apiFetch('/api/user.php', { fetchImpl });
    await apiFetch('/api/likes.php', { fetchImpl });
    const headersOf = (call: number) => fetchImpl.mock.calls[call]![1]!.headers as Record<string, string>;
    expect(headersOf(0)['x-request-type']).toBe('client');
    expect(headersOf(1)['x-request-type']).toBeUndefined();
  });

  it('tells the listeners when the member turns out to be logged out', async () => {
    const listener = vi.fn();
    const stop = onAuthenticationRequired(listener);
    const fetchImpl = vi
      .fn<typeof fetch>()
      .mockResolvedValue(json(403, { error: 'authentication_required', message: '' }));
    await expect(apiFetch('/api/chats.php', { fetchImpl })).rejects.toBeInstanceOf(ApiError);
    expect(listener).toHaveBeenCalledTimes(1);
    stop();
  });
});
