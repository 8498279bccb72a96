import fastifySwagger from '@fastify/swagger';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { createJsonSchemaTransform, createJsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBodySchema } from '#contract/common.ts';
import { adminEventSchema, liveClientFrameSchema, liveEventSchema } from '#contract/live.ts';
import { needsStaffSession } from '#server/modules/staff/staff.sessions.ts';

/**
 * The OpenAPI document served at /api/docs/json, made from the routes' zod schemas and completed
 * from how each route is guarded: the session cookie as a security scheme per operation, an
 * operationId for every operation, the statuses the app's hooks answer (403, 422, 429, 503), and
 * the shared schemas (the error body, the live events) as named components.
 */

/** Named components: a route schema that is one of these instances becomes a $ref. */
export const apiSchemas = z.registry<{ id: string; description?: string }>();
apiSchemas.add(errorBodySchema, {
  id: 'ErrorBody',
  description: 'Every error: {error: CODE, message: TEXT}',
});
apiSchemas.add(liveEventSchema, { id: 'LiveEvent', description: 'A frame the server sends on GET /api/ws' });
apiSchemas.add(liveClientFrameSchema, {
  id: 'LiveClientFrame',
  description: 'A frame a member sends on /api/ws',
});
apiSchemas.add(adminEventSchema, {
  id: 'AdminEvent',
  description: 'A frame the server sends on GET /api/admin/ws',
});

export const securitySchemes = {
  cookieAuth: {
    type: 'apiKey',
    in: 'cookie',
    name: 'sid',
    description: 'The member session cookie set by POST /api/user.php (login) and POST /api/signup.php',
  },
  staffCookieAuth: {
    type: 'apiKey',
    in: 'cookie',
    name: 'staff_sid',
    description: 'The back-office session cookie set by POST /api/admin/session.php',
  },
  webhookSecret: {
    type: 'apiKey',
    in: 'header',
    name: 'x-webhook-secret',
    description: "The mail provider's webhook secret (MAIL_WEBHOOK_SECRET)",
  },
} as const;

type Security = Record<string, string[]>[];

/** Calls whose guard the handler's text does not tell: the member cookie is optional there. */
const optionalMember = new Set(['POST /api/user.php']);
const requiredMember = new Set(['GET /api/ws']);

/** Request bodies the zod schemas cannot say (a form parser or a multipart stream). */
const extraBodies: Record<string, { consumes: string[]; body: Record<string, unknown> }> = {
  'POST /api/unsubscribe.php': {
    consumes: ['application/x-www-form-urlencoded'],
    body: {
      type: 'object',
      description: 'RFC 8058 one-click unsubscribe, as mail clients send it',
      properties: { 'List-Unsubscribe': { type: 'string', enum: ['One-Click'] } },
    },
  },
};

const multipartFileBody = {
  type: 'object',
  properties: { file: { type: 'string', format: 'binary', description: 'The image (JPEG, PNG or WebP)' } },
  required: ['file'],
};

/**
 * How a route is guarded: the staff area by its path (the staff-session hook refuses every call
 * without one before validation, whatever helper the handler calls), member calls and webhooks by
 * the guard their handler calls (requireMember / a webhook secret).
 */
export function routeSecurity(route: Pick<RouteOptions, 'handler' | 'method' | 'url'>): Security {
  const source = sourceOf(route);
  const key = `${String(route.method)} ${route.url}`;
  if (needsStaffSession(String(route.method), route.url) || /\brequireStaff\b/.test(source))
    return [{ staffCookieAuth: [] }];
  if (/x-webhook-secret/.test(source)) return [{ webhookSecret: [] }];
  if (optionalMember.has(key)) return [{}, { cookieAuth: [] }];
  if (requiredMember.has(key)) return [{ cookieAuth: [] }];
  if (/\brequireMember\b/.test(source)) return [{ cookieAuth: [] }];
  if (/request\.member\b/.test(source)) return [{}, { cookieAuth: [] }];
  return [];
}

/** getUser for GET /api/user.php, postAdminSession for POST /api/admin/session.php. */
export function operationIdFor(method: string, url: string): string {
  const words = url
    .replace(/^\/api\//, '')
    .replace(/\.php$/, '')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean);
  return method.toLowerCase() + words.map((word) => word[0]!.toUpperCase() + word.slice(1)).join('');
}

const noBody = (description: string) => z.null().describe(description);

type RouteSchema = Record<string, unknown> & { response?: Record<string, unknown>; hide?: boolean };

/** Adds what the hooks and guards answer to one route's schema (zod, before the JSON conversion). */
function completeSchema(route: RouteOptions, schema: RouteSchema): RouteSchema {
  const method = String(route.method);
  const source = sourceOf(route);
  const security = (schema.security as Security | undefined) ?? routeSecurity(route);
  const response: Record<string, unknown> = { ...(schema.response ?? {}) };
  const add = (status: number, value: unknown) => {
    if (response[status] === undefined) response[status] = value;
  };
  const websocket = (route as { websocket?: boolean }).websocket === true;
  if (websocket) {
    return {
      ...schema,
      security,
      response: {
        101: noBody(
          'Switching Protocols. The server then sends JSON text frames (see the LiveEvent / AdminEvent schemas); it closes with 1001 when it shuts down (reconnect at once), 4401 without a session and 4403 for a foreign Origin',
        ),
      },
    };
  }
  if (/\.redirect\(/.test(source)) {
    add(302, noBody('A redirect to the page that shows the result (Location header)'));
  }
  if (/\.(status|code)\(204\)/.test(source)) {
    add(204, noBody('Done, no content'));
  }
  // Without a declared success the document would otherwise lose the default 200 once errors are added.
  if (!Object.keys(response).some((status) => /^[23]/.test(status))) add(200, z.unknown().describe('OK'));
  if (security.some((entry) => Object.keys(entry).length > 0)) add(403, errorBodySchema);
  if (method !== 'GET' && method !== 'HEAD') add(403, errorBodySchema); // csrf_failed
  if (schema.body || schema.querystring || schema.params) add(422, errorBodySchema);
  const config = route.config as { rateLimit?: unknown } | undefined;
  if (config?.rateLimit) add(429, errorBodySchema);
  add(503, errorBodySchema); // setup_required on an empty database, or a provider that does not answer
  const extra = extraBodies[`${method} ${route.url}`];
  const consumes = (schema.consumes as string[] | undefined) ?? extra?.consumes;
  return { ...schema, security, response, ...(consumes ? { consumes } : {}) };
}

const zodTransform = createJsonSchemaTransform({ schemaRegistry: apiSchemas });
const zodTransformObject = createJsonSchemaTransformObject({ schemaRegistry: apiSchemas });

type TransformInput = Parameters<typeof zodTransform>[0];

export function transformRoute(input: TransformInput): ReturnType<typeof zodTransform> {
  const route = (input as { route: RouteOptions }).route;
  const schema = input.schema as RouteSchema | undefined;
  // @fastify/websocket hides its routes; ours are documented (101 and the event schemas).
  const websocket = (route as { websocket?: boolean }).websocket === true;
  if (!schema || (schema.hide && !websocket) || !route.url.startsWith('/api/')) return zodTransform(input);
  const { hide: _hidden, ...visible } = schema;
  const completed = completeSchema(route, visible);
  const result = zodTransform({ ...input, schema: completed } as TransformInput);
  const out = result.schema as Record<string, unknown>;
  const extra = extraBodies[`${String(route.method)} ${route.url}`];
  if (extra && !out.body) out.body = extra.body;
  if ((completed.consumes as string[] | undefined)?.includes('multipart/form-data') && !out.body)
    out.body = multipartFileBody;
  return result;
}

const responseDescriptions: Record<string, string> = {
  200: 'OK',
  201: 'Created',
  204: 'Done, no content',
  302: 'A redirect to the page that shows the result (Location header)',
  400: 'Bad request (e.g. invalid_json)',
  401: 'Not accepted (e.g. login_failed)',
  402: 'Not enough credits (insufficient_credits)',
  403: 'Forbidden: authentication_required without a session, csrf_failed for a foreign Origin, or a rule of the call',
  404: 'Not found',
  409: 'Conflict with the current state',
  410: 'Gone (e.g. an expired link)',
  413: 'Payload too large',
  415: 'Unsupported media type',
  422: 'validation_failed with fields, or a rule of the call',
  429: 'rate_limited (Retry-After header)',
  503: 'setup_required before the first site exists, or a provider that does not answer (retry later)',
};

/** The event schema each WebSocket path sends. */
const liveEvents: Record<string, string> = { '/api/ws': 'LiveEvent', '/api/admin/ws': 'AdminEvent' };

type OpenApiResponse = { description?: string; content?: unknown };
type OpenApiDocument = {
  paths?: Record<
    string,
    Record<
      string,
      { operationId?: string; requestBody?: unknown; responses?: Record<string, OpenApiResponse> }
    >
  >;
  [key: string]: unknown;
};

export function transformDocument(input: Parameters<typeof zodTransformObject>[0]) {
  const document = zodTransformObject(input) as OpenApiDocument;
  const seen = new Set<string>();
  for (const [url, operations] of Object.entries(document.paths ?? {})) {
    for (const [method, operation] of Object.entries(operations)) {
      let id = operation.operationId ?? operationIdFor(method, url);
      while (seen.has(id)) id = `${id}_`;
      seen.add(id);
      operation.operationId = id;
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        if (response.description === 'Default Response') {
          response.description = responseDescriptions[status] ?? 'See the summary';
        }
      }
      const events = liveEvents[url];
      const upgrade = operation.responses?.['101'];
      if (events && upgrade) {
        upgrade.description = `Switching Protocols: the server then sends ${events} frames as JSON text; it closes with 1001 when it shuts down (reconnect at once), 4401 without a session and 4403 for a foreign Origin`;
        upgrade.content = { 'application/json': { schema: { $ref: `#/components/schemas/${events}` } } };
        if (url === '/api/ws') {
          operation.requestBody = {
            description: 'Frames the client may send after the upgrade',
            content: { 'application/json': { schema: { $ref: '#/components/schemas/LiveClientFrame' } } },
          };
        }
      }
    }
  }
  // The registry's input copies (zod keeps both) that no operation refers to.
  const schemas = (document.components as { schemas?: Record<string, unknown> } | undefined)?.schemas;
  const text = JSON.stringify(document.paths);
  for (const name of Object.keys(schemas ?? {})) {
    if (name.endsWith('Input') && !text.includes(`/schemas/${name}"`)) delete schemas![name];
  }
  return document as ReturnType<typeof zodTransformObject>;
}

/** Every route as it is registered (the coverage test compares them with the document). */
/** The schema is the object the route was registered with (the contract test compares its parts by identity). */
type RegisteredRoute = { method: string; url: string; hidden: boolean; schema: RouteSchema | undefined };
const registered = new WeakMap<FastifyInstance, RegisteredRoute[]>();
/** A handler's own text, before plugins (e.g. @fastify/websocket) wrap it. */
const handlerSources = new WeakMap<object, string>();

export function registeredRoutes(app: FastifyInstance) {
  return registered.get(app) ?? [];
}

const sourceOf = (route: Pick<RouteOptions, 'handler'>) => handlerSources.get(route) ?? String(route.handler);

/** Call first, before any plugin adds routes or wraps handlers. */
export function collectRoutes(app: FastifyInstance): void {
  const routes: RegisteredRoute[] = [];
  registered.set(app, routes);
  app.addHook('onRoute', (route) => {
    handlerSources.set(route, String(route.handler));
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const schema = route.schema as RouteSchema | undefined;
    const hidden = schema?.hide === true;
    for (const method of methods) routes.push({ method: String(method), url: route.url, hidden, schema });
  });
}

export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Dating platform API',
        description:
          'The JSON API of the web UI, the installed app and outside clients (api-contract.md). Errors are `{"error": CODE, "message": TEXT}` (ErrorBody); every response carries an `X-Request-Id` header to quote in a report.',
        version: '1',
        license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
      },
      servers: [
        { url: '/', description: 'The site the client talks to (one deployment serves every brand)' },
      ],
      components: { securitySchemes },
    },
    transform: transformRoute,
    transformObject: transformDocument,
  });
}
