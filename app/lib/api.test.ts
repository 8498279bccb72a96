import { describe, expect, it, vi } from 'vitest';
import { fetchTransport, type Transport, typedApi, withQuery } from './api.ts';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

describe('the typed API client', () => {
  it('builds the query string from the typed query, leaving absent values out', () => {
    expect(withQuery('/api/chat.php', { conversation: 7, after: undefined, before: 3 })).toBe(
      '/api/chat.php?conversation=7&before=3',
    );
    expect(withQuery('/api/chats.php', undefined)).toBe('/api/chats.php');
  });

  it('answers ok with the data parsed by the answer schema', async () => {
    const transport = vi.fn<Transport>(async () => ({
      status: 200,
      data: { unread_messages: 2, unread_conversations: 1, new_likes: 3, credits: 9, extra: 'dropped' },
      setCookies: [],
    }));
    const answer = await typedApi(transport)('GET /api/counts.php');
    expect(transport).toHaveBeenCalledWith('/api/counts.php', { method: 'GET', signal: undefined });
    expect(answer).toEqual({
      ok: true,
      status: 200,
      data: { unread_messages: 2, unread_conversations: 1, new_likes: 3, credits: 9 },
      setCookies: [],
    });
  });

  it('tells an error apart by type and narrows its code to the codes the contract lists', async () => {
    const api = typedApi(async () => ({
      status: 402,
      data: { error: 'insufficient_credits', message: 'Not enough credits', required: 1 },
      setCookies: [],
    }));
    const answer = await api('POST /api/chat.php', { body: { profile: 1, text: 'hi' } });
    expect(answer.ok).toBe(false);
    if (!answer.ok) {
      expect(answer.code).toBe('insufficient_credits');
      expect(answer.error.message).toBe('Not enough credits');
    }
    const unknown = await typedApi(async () => ({
      status: 409,
      data: { error: 'something_new', message: 'x' },
      setCookies: [],
    }))('GET /api/chats.php');
    expect(!unknown.ok && unknown.code).toBe('internal_error');
  });

  it('reads an answer that does not fit its schema as an internal error, never as data', async () => {
    const answer = await typedApi(async () => ({ status: 200, data: { chats: 'nope' }, setCookies: [] }))(
      'GET /api/chats.php',
    );
    expect(answer).toMatchObject({ ok: false, status: 500, code: 'internal_error' });
  });

  it('answers status 0 network_error when the request never reached the server', async () => {
    const api = typedApi(
      fetchTransport(
        vi.fn<typeof fetch>().mockRejectedValue(new TypeError('offline')),
        async () => undefined,
      ),
    );
    expect(await api('POST /api/chat.php', { body: { profile: 1, text: 'hi' } })).toMatchObject({
      ok: false,
      status: 0,
      code: 'network_error',
    });
  });

  it('never repeats a POST but retries a GET that failed on the server', async () => {
    const fetchImpl = vi
      .fn<typeof fetch>()
      .mockImplementation(async () => json(503, { error: 'internal_error', message: 'x' }));
    const api = typedApi(fetchTransport(fetchImpl, async () => undefined));
    await api('POST /api/chat.php', { body: { profile: 1, text: 'hi', client_id: 'abcdefgh' } });
    expect(fetchImpl).toHaveBeenCalledTimes(1);
    fetchImpl.mockClear();
    fetchImpl.mockResolvedValueOnce(json(503, { error: 'internal_error', message: 'x' }));
    fetchImpl.mockResolvedValueOnce(json(200, { chats: [], next: null }));
    expect(await api('GET /api/chats.php')).toMatchObject({ ok: true, data: { chats: [], next: null } });
    expect(fetchImpl).toHaveBeenCalledTimes(2);
  });
});
