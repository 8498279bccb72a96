import { z } from 'zod';

/** The body of every error answer (api-contract.md, Conventions). */
export const errorBodySchema = z
  .object({
    error: z.string().describe('A stable machine-readable code, e.g. login_failed'),
    message: z.string().describe("A human-readable message in the caller's locale"),
    fields: z.record(z.string(), z.string()).optional().describe('validation_failed: field -> code'),
  })
  .loose();
export type ErrorBody = z.infer<typeof errorBodySchema>;

export const okSchema = z.object({ ok: z.literal(true) });

/** A CSV download's body (text/csv; the browser follows the link, no client parses it). */
export const csvFileSchema = z.string().describe('text/csv');

/** The largest value of a PostgreSQL `integer` column: every id and count of the API fits in one. */
export const maxInt32 = 2_147_483_647;

/** An id in a JSON body: a positive integer that fits the database (a bigger one is a 422, never a database error). */
export const idField = z.number().int().positive().max(maxInt32);

/**
 * idField with the codes a form shows at the field: `required` when it is missing or no number,
 * `invalid` when it is no id (a fraction, zero, negative or beyond the database's range).
 */
export const formIdField = z
  .number({ error: 'required' })
  .int({ error: 'invalid' })
  .positive({ error: 'invalid' })
  .max(maxInt32, { error: 'invalid' });

/** An id in a query string or path: digits that make a positive integer that fits the database. */
export const idParam = z.coerce.number().int().positive().max(maxInt32);

/** A cursor in a query string (0 allowed), within the database's integer range. */
export const cursorParam = z.coerce.number().int().min(0).max(maxInt32);
