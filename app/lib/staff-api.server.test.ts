import { describe, expect, it } from 'vitest';
import type { ApiCaller, ApiResult } from './load-context.ts';
import { staffApi } from './staff-api.server.ts';

/** An in-process caller that answers once, recording what it was asked. */
function answering(status: number, data: unknown) {
  const calls: { path: string; request: unknown }[] = [];
  const caller: ApiCaller = async <T>(path: string, request?: unknown): Promise<ApiResult<T>> => {
    calls.push({ path, request });
    return { status, ok: status < 300, data: data as T, setCookies: [] };
  };
  return { caller, calls };
}

describe("the back office's typed client", () => {
  it('calls the declared path with its query, and answers the data its answer schema reads', async () => {
    const { caller, calls } = answering(200, { reports: [], extra: 'dropped' });
    const answer = await staffApi(caller)('GET /api/admin/reports.php', { query: { status: 'open' } });
    expect(calls).toEqual([{ path: '/api/admin/reports.php?status=open', request: { method: 'GET' } }]);
    expect(answer).toEqual({ ok: true, status: 200, data: { reports: [] }, setCookies: [] });
  });

  it("sends a form's body as typed, so the server names a field that does not parse", async () => {
    const { caller, calls } = answering(422, {
      error: 'validation_failed',
      message: 'Check the fields',
      fields: { credits: 'invalid' },
    });
    const answer = await staffApi(caller)('PUT /api/admin/bundles.php', { body: { id: 3, credits: 'ten' } });
    expect(calls[0]).toEqual({
      path: '/api/admin/bundles.php',
      request: { method: 'PUT', body: { id: 3, credits: 'ten' } },
    });
    expect(answer).toMatchObject({ ok: false, status: 422, code: 'validation_failed' });
  });

  it('narrows an error to the codes the staff call lists, and an unknown one to internal_error', async () => {
    const forbidden = await staffApi(answering(403, { error: 'forbidden', message: 'No' }).caller)(
      'GET /api/admin/sites.php',
    );
    expect(!forbidden.ok && forbidden.code).toBe('forbidden');
    const refund = await staffApi(answering(409, { error: 'refund_impossible', message: 'No' }).caller)(
      'POST /api/admin/refund.php',
      { body: { order: 1, reason: 'asked' } },
    );
    expect(!refund.ok && refund.code).toBe('refund_impossible');
    const odd = await staffApi(answering(409, { error: 'something_new', message: 'x' }).caller)(
      'GET /api/admin/sites.php',
    );
    expect(!odd.ok && odd.code).toBe('internal_error');
  });

  it('reads an answer that does not fit the declaration as an internal error, never as data', async () => {
    const answer = await staffApi(answering(200, { sites: 'nope' }).caller)('GET /api/admin/sites.php');
    expect(answer).toMatchObject({ ok: false, status: 500, code: 'internal_error' });
  });
});
