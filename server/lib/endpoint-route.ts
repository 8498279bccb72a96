import type {
  ContextConfigDefault,
  FastifyBaseLogger,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
  RouteGenericInterface,
  RouteHandlerMethod,
  RouteShorthandOptions,
} from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AnyEndpoint } from '#contract/endpoint.ts';
import type { ZodApp } from './zod-app.ts';

/** The Fastify schema a declaration stands for: the handler's request and reply are typed by it. */
export type SchemaOf<E extends AnyEndpoint> = {
  tags: E['tags'];
  summary: string;
  querystring: E['query'];
  params: E['params'];
  body: E['body'];
  response: E['responses'];
};

/** What a route adds to its declaration: rate limits, hooks, a body limit. */
export type RouteExtras<E extends AnyEndpoint> = Omit<
  RouteShorthandOptions<
    RawServerDefault,
    RawRequestDefaultExpression,
    RawReplyDefaultExpression,
    RouteGenericInterface,
    ContextConfigDefault,
    SchemaOf<E>,
    ZodTypeProvider,
    FastifyBaseLogger
  >,
  'schema'
>;

export type EndpointHandler<E extends AnyEndpoint> = RouteHandlerMethod<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  RouteGenericInterface,
  ContextConfigDefault,
  SchemaOf<E>,
  ZodTypeProvider,
  FastifyBaseLogger
>;

/** The route schema of a declaration, holding the declaration's own schema instances. */
export function schemaOf<E extends AnyEndpoint>(endpoint: E): SchemaOf<E> & { consumes?: string[] } {
  const schema: Record<string, unknown> = { tags: [...endpoint.tags], summary: endpoint.summary };
  if (endpoint.responses) schema.response = endpoint.responses;
  if (endpoint.query) schema.querystring = endpoint.query;
  if (endpoint.params) schema.params = endpoint.params;
  if (endpoint.body) schema.body = endpoint.body;
  if (endpoint.consumes) schema.consumes = [...endpoint.consumes];
  return schema as SchemaOf<E> & { consumes?: string[] };
}

/**
 * Registers the route a contract declaration describes: method, path and every schema come from
 * it (contract/endpoints.test.ts checks no route under /api/ is written any other way).
 */
export function routeOf<E extends AnyEndpoint>(
  app: ZodApp,
  endpoint: E,
  extras: RouteExtras<E>,
  handler: EndpointHandler<E>,
): void {
  app.route({
    ...(extras as object),
    method: endpoint.method,
    url: endpoint.path,
    schema: schemaOf(endpoint),
    handler: handler as never,
  });
}
