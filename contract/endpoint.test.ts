import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { errorBodySchema } from './common.ts';
import { defineEndpoint } from './endpoint.ts';

describe('defineEndpoint', () => {
  const answer = z.object({ ok: z.literal(true) });

  it('keeps the declaration and names its 2xx answer, its key and its error codes', () => {
    const endpoint = defineEndpoint({
      method: 'POST',
      path: '/api/example.php',
      tags: ['example'],
      summary: 'An example',
      responses: { 201: answer, 404: errorBodySchema },
      errors: ['gone'],
    });
    expect(endpoint.response).toBe(answer);
    expect(endpoint.key).toBe('POST /api/example.php');
    expect(endpoint.errors).toEqual(['gone']);
    expect(Object.isFrozen(endpoint)).toBe(true);
  });

  it('has no answer schema for a call that answers no JSON, and no error codes unless given', () => {
    const endpoint = defineEndpoint({ method: 'GET', path: '/api/link.php', tags: [], summary: 'A link' });
    expect(endpoint.response).toBeUndefined();
    expect(endpoint.errors).toEqual([]);
  });

  it('refuses two success answers: the typed client could not tell which it gets', () => {
    expect(() =>
      defineEndpoint({
        method: 'GET',
        path: '/api/two.php',
        tags: [],
        summary: 'Two answers',
        responses: { 200: answer, 201: answer },
      }),
    ).toThrow(/more than one 2xx/);
  });
});
