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
