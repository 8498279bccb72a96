import type { FastifyInstance } from 'fastify';

/** The part of JSON Schema the zod → OpenAPI transform writes. */
export type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: boolean | number;
  minLength?: number;
  maxLength?: number;
  format?: string;
  pattern?: string;
  default?: unknown;
  nullable?: boolean;
  additionalProperties?: boolean | JsonSchema;
};

export type Operation = {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** The OpenAPI path, e.g. /api/assets/paymentmethod/{file}. */
  path: string;
  tag: string;
  query: { name: string; required: boolean; schema: JsonSchema }[];
  pathParams: { name: string; schema: JsonSchema }[];
  body: JsonSchema | undefined;
};

type OpenApiParameter = { in: string; name: string; required?: boolean; schema?: JsonSchema };
type OpenApiOperation = {
  tags?: string[];
  parameters?: OpenApiParameter[];
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
};

const methods = ['get', 'post', 'put', 'patch', 'delete'] as const;

/** Every operation of the app's OpenAPI document (/api/docs/json): new routes are fuzzed without a list to keep. */
export async function apiOperations(app: FastifyInstance): Promise<Operation[]> {
  const response = await app.inject({ url: '/api/docs/json' });
  if (response.statusCode !== 200) throw new Error(`/api/docs/json answered ${response.statusCode}`);
  const document = response.json() as { paths: Record<string, Partial<Record<string, OpenApiOperation>>> };
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of methods) {
      const operation = item[method];
      if (!operation) continue;
      const parameters = operation.parameters ?? [];
      operations.push({
        method: method.toUpperCase() as Operation['method'],
        path,
        tag: operation.tags?.[0] ?? 'untagged',
        query: parameters
          .filter((parameter) => parameter.in === 'query')
          .map((parameter) => ({
            name: parameter.name,
            required: parameter.required === true,
            schema: parameter.schema ?? {},
          })),
        pathParams: parameters
          .filter((parameter) => parameter.in === 'path')
          .map((parameter) => ({ name: parameter.name, schema: parameter.schema ?? {} })),
        body: operation.requestBody?.content?.['application/json']?.schema,
      });
    }
  }
  return operations;
}
