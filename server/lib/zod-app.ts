import type {
  FastifyBaseLogger,
  FastifyInstance,
  FastifyReply,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';

/** A Fastify instance whose route schemas are zod schemas (typed requests and replies). */
export type ZodApp = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  ZodTypeProvider
>;

/**
 * The JSON the route's serializer would send for `data` (the contract's schema encodes it, unknown
 * keys dropped), for an answer kept ready-made and sent as a string.
 */
export function serializeAnswer<T extends z.ZodType>(schema: T, data: z.output<T>): string {
  return JSON.stringify(z.encode(schema, data));
}

/** Sends what serializeAnswer made: Fastify sends a string as it is, with every hook still run. */
export function sendSerialized(reply: FastifyReply, body: string): FastifyReply {
  return reply.type('application/json; charset=utf-8').send(body);
}
