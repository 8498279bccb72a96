import type { z } from 'zod';

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** The answers of a call by status: the 2xx body and the error statuses (errorBodySchema). */
export type Responses = { readonly [status: number]: z.ZodType };

/** The status codes of a response map that are a success (2xx), as numbers. */
type SuccessStatus<R extends Responses> = Extract<keyof R, 200 | 201 | 202 | 204>;

type Declaration = {
  method: Method;
  path: `/api/${string}`;
  /** The OpenAPI summary: what the call does and the rules a client must know. */
  summary: string;
  tags: readonly string[];
  query?: z.ZodType;
  /** The path's parameters (`:name` segments). */
  params?: z.ZodType;
  body?: z.ZodType;
  /** Left out for a call that answers no JSON (a redirect from a mailed link, a beacon's 204). */
  responses?: Responses;
  /** Codes of the error body this call answers with, besides commonErrorCodes (the typed client narrows to them). */
  errors?: readonly string[];
  /** Request content types the body schema cannot say (a multipart upload). */
  consumes?: readonly string[];
};

/** A declared call: what the server registers (server/lib/endpoint-route.ts) and the client types. */
export type Endpoint<D extends Declaration> = D & {
  /** The 2xx answer's body, for the typed client (undefined for a call that answers no JSON). */
  response: D['responses'] extends Responses ? D['responses'][SuccessStatus<D['responses']>] : undefined;
  errors: D['errors'] extends readonly string[] ? D['errors'] : readonly [];
  /** "METHOD /path", the key of the endpoint map. */
  key: `${D['method']} ${D['path']}`;
};

/** Any declared call, whatever its schemas. */
export type AnyEndpoint = Declaration & {
  response: z.ZodType | undefined;
  errors: readonly string[];
  key: string;
};

/**
 * One call's contract, written once: the route registers its schemas from it and the web client
 * reads its types from it, so the two cannot drift apart.
 */
export function defineEndpoint<const D extends Declaration>(declaration: D): Endpoint<D> {
  const successes = Object.keys(declaration.responses ?? {}).filter((status) => /^2/.test(status));
  if (successes.length > 1) {
    throw new Error(`${declaration.method} ${declaration.path} declares more than one 2xx answer`);
  }
  const response = successes[0] === undefined ? undefined : declaration.responses?.[Number(successes[0])];
  return Object.freeze({
    ...declaration,
    errors: declaration.errors ?? [],
    response,
    key: `${declaration.method} ${declaration.path}`,
  }) as Endpoint<D>;
}
