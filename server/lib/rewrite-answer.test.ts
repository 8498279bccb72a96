import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { rewriteAnswer } from './rewrite-answer.ts';

describe('rewriteAnswer', () => {
  it('copies what changes and leaves the answer as it was', () => {
    const answer = { rows: [{ label: 'a', inner: { label: 'b' } }], total: 1 };
    const result = rewriteAnswer(answer, (node) =>
      typeof node.label === 'string' ? { label: node.label.toUpperCase() } : undefined,
    );
    expect(result).toEqual({ rows: [{ label: 'A', inner: { label: 'B' } }], total: 1 });
    expect(answer).toEqual({ rows: [{ label: 'a', inner: { label: 'b' } }], total: 1 });
  });

  it('returns the same object when nothing changes', () => {
    const answer = { rows: [{ id: 1 }, { id: 2 }] };
    expect(rewriteAnswer(answer, () => undefined)).toBe(answer);
  });

  it('rewrites an object that appears on many rows once, as one copy', () => {
    const profile = { name: 'Mila' };
    const answer = { rows: Array.from({ length: 25 }, (_, id) => ({ id, profile })) };
    let asked = 0;
    const result = rewriteAnswer(answer, (node) => {
      if (node.name !== 'Mila') return undefined;
      asked += 1;
      return { name: 'Mila ✓' };
    });
    const { rows } = z
      .object({ rows: z.array(z.object({ profile: z.object({ name: z.string() }) })) })
      .parse(result);
    expect(asked).toBe(1);
    expect(rows.map((row) => row.profile.name)).toEqual(Array(25).fill('Mila ✓'));
    const copies = z.object({ rows: z.array(z.object({ profile: z.unknown() })) }).parse(result).rows;
    expect(new Set(copies.map((row) => row.profile)).size).toBe(1);
    expect(profile.name).toBe('Mila');
  });
});
