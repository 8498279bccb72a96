import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import fc from 'fast-check';
import type { OpenAPI3 } from 'openapi-typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiTypes } from '../../scripts/openapi.ts';
import { plausible } from '../../tests/abuse/generators.ts';
import { apiOperations, type JsonSchema } from '../../tests/abuse/openapi.ts';
import { nextIp } from '../../tests/setup/members.ts';
import { createTestApp, type TestApp } from '../../tests/setup/test-app.ts';
import { operationIdFor, registeredRoutes } from './openapi.ts';

const root = path.resolve(import.meta.dirname, '../..');
/** Routes that are no API call: the catch-all 404, the documentation itself. */
const undocumented = [/^\/api\/\*$/, /^\/api\/docs/];

/** The smallest value a JSON schema accepts: required fields only, the least of each. */
function smallestValid(schema: JsonSchema, name = ''): unknown {
  if (schema.const !== undefined) return schema.const;
  if (schema.enum && schema.enum.length > 0) return schema.enum[0];
  const choice = [...(schema.anyOf ?? []), ...(schema.oneOf ?? [])].find((part) => part.type !== 'null');
  if (choice) return smallestValid(choice);
  const type = (Array.isArray(schema.type) ? schema.type : [schema.type]).find((name) => name !== 'null');
  switch (type ?? (schema.properties ? 'object' : 'string')) {
    case 'integer':
    case 'number':
      return Math.max(typeof schema.minimum === 'number' ? schema.minimum : 1, 1);
    case 'boolean':
      return true;
    case 'array':
      return [];
    case 'object':
      return Object.fromEntries(
        (schema.required ?? []).map((field) => [
          field,
          smallestValid(schema.properties?.[field] ?? {}, field),
        ]),
      );
    default:
      if (schema.format === 'email' || name === 'email') return 'someone@example.com';
      if (schema.format === 'date') return '1990-05-17';
      if (schema.format === 'date-time') return '2030-01-01T00:00:00Z';
      if (schema.format === 'uri') return 'https://example.com/';
      return 'x'.repeat(Math.max(schema.minLength ?? 1, 1));
  }
}

/** Valid calls the schema alone does not give (a rule across fields). */
const validCalls: Record<string, { query: unknown[]; body: unknown }> = {
  'POST /api/chat.php': { query: [], body: { profile: 1, text: 'Hello there' } },
};

type Operation = {
  operationId?: string;
  security?: Record<string, string[]>[];
  responses: Record<string, { content?: Record<string, { schema?: { $ref?: string } }> }>;
  requestBody?: { content: Record<string, unknown> };
};

describe('the OpenAPI document', () => {
  let t: TestApp;
  let document: OpenAPI3;
  let paths: Record<string, Record<string, Operation>>;
  beforeAll(async () => {
    t = await createTestApp();
    await t.app.ready();
    document = t.app.swagger() as OpenAPI3;
    paths = document.paths as typeof paths;
  });
  afterAll(() => t.close());

  it('lists every registered API route (onRoute), hidden ones only by name', () => {
    const routes = registeredRoutes(t.app).filter((route) => route.method !== 'HEAD');
    expect(routes.length).toBeGreaterThan(80);
    const missing = routes
      .filter((route) => !undocumented.some((pattern) => pattern.test(route.url)))
      .filter((route) => route.url.startsWith('/api/') || !route.hidden)
      .filter((route) => {
        const url = route.url.replace(/:(\w+)/g, '{$1}');
        return paths[url]?.[route.method.toLowerCase()] === undefined;
      })
      .map((route) => `${route.method} ${route.url}`);
    expect(missing).toEqual([]);
  });

  it('names every operation, guards member calls with the cookie and leaves public calls open', () => {
    const ids = new Set<string>();
    for (const [url, operations] of Object.entries(paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        expect(operation.operationId, `${method} ${url}`).toBeTruthy();
        ids.add(operation.operationId!);
        expect(operation.security, `${method} ${url}`).toBeDefined();
      }
    }
    expect(ids.size).toBe(Object.values(paths).flatMap((item) => Object.keys(item)).length);
    expect(operationIdFor('get', '/api/admin/session.php')).toBe('getAdminSession');
    expect(paths['/api/chats.php']!.get!.security).toEqual([{ cookieAuth: [] }]);
    expect(paths['/api/chats.php']!.get!.responses['403']).toBeDefined();
    expect(paths['/api/signup.php']!.post!.security).toEqual([]);
    expect(paths['/api/admin/inbox.php']!.get!.security).toEqual([{ staffCookieAuth: [] }]);
    expect(document.components?.securitySchemes?.cookieAuth).toMatchObject({ in: 'cookie', name: 'sid' });
  });

  it('documents the statuses calls really answer and names the error body once', () => {
    expect(Object.keys(paths['/api/page-hidden.php']!.post!.responses)).toContain('204');
    expect(paths['/api/page-hidden.php']!.post!.responses['200']).toBeUndefined();
    expect(Object.keys(paths['/api/activate.php']!.get!.responses)).toContain('302');
    expect(paths['/api/activate.php']!.get!.responses['200']).toBeUndefined();
    expect(paths['/api/signup.php']!.post!.responses['422']).toBeDefined();
    expect(paths['/api/signup.php']!.post!.responses['429']).toBeDefined();
    expect(Object.keys(paths['/api/photos.php']!.post!.requestBody!.content)).toEqual([
      'multipart/form-data',
    ]);
    expect(Object.keys(paths['/api/unsubscribe.php']!.post!.requestBody!.content)).toEqual([
      'application/x-www-form-urlencoded',
    ]);
    const text = JSON.stringify(paths);
    expect(text).toContain('"#/components/schemas/ErrorBody"');
    expect(text).not.toContain('A stable machine-readable code');
    expect(Object.keys(document.components?.schemas ?? {})).toEqual(
      expect.arrayContaining(['ErrorBody', 'LiveEvent', 'AdminEvent', 'LiveClientFrame']),
    );
  });

  it('describes both WebSockets with 101 and their event schemas', () => {
    const live = paths['/api/ws']!.get!;
    expect(live.responses['101']!.content!['application/json']!.schema!.$ref).toBe(
      '#/components/schemas/LiveEvent',
    );
    expect(live.security).toEqual([{ cookieAuth: [] }]);
    const staff = paths['/api/admin/ws']!.get!;
    expect(staff.responses['101']!.content!['application/json']!.schema!.$ref).toBe(
      '#/components/schemas/AdminEvent',
    );
  });

  it('declares a security requirement on exactly the operations the server refuses without one', async () => {
    // Answers that say nothing about the session: the call did not get as far as its guard.
    const beforeTheGuard = new Set([400, 413, 415, 422]);
    // The refusals of a missing session; a public call may still answer 401/403 for a rule of its
    // own (login_failed, csrf_failed for a cross-site sign-out link), never one of these.
    const sessionRefusals = new Set(['authentication_required', 'staff_required']);
    const mismatches: string[] = [];
    for (const [index, operation] of (await apiOperations(t.app)).entries()) {
      const key = `${operation.method} ${operation.path}`;
      const declared = paths[operation.path]?.[operation.method.toLowerCase()]?.security ?? [];
      // [] is a public call, [{}, {cookieAuth: []}] one whose session is optional (either answer fits).
      const required = declared.length > 0 && declared.every((entry) => Object.keys(entry).length > 0);
      const optional = declared.length > 0 && !required;
      if (optional || operation.path.endsWith('/ws')) continue; // WebSockets: 4401 on the socket (live tests).
      // The smallest valid call first, then plausible ones: a member's guard runs after validation.
      const samples = [
        ...(validCalls[key] ? [validCalls[key]] : []),
        {
          query: operation.query.map((parameter) =>
            parameter.required ? smallestValid(parameter.schema) : undefined,
          ),
          body: smallestValid(operation.body ?? {}),
        },
        ...fc.sample(
          fc.record({
            query: fc.tuple(...operation.query.map((parameter) => plausible(parameter.schema))),
            body: operation.body ? plausible(operation.body) : fc.constant(undefined),
          }),
          { numRuns: 20, seed: 20261201 + index },
        ),
      ];
      let answer: { status: number; error: string } | undefined;
      for (const sample of samples) {
        const query = new URLSearchParams();
        operation.query.forEach((parameter, position) => {
          const value = sample.query[position];
          if (value !== undefined)
            query.set(parameter.name, typeof value === 'string' ? value : JSON.stringify(value));
        });
        let url = operation.path;
        for (const parameter of operation.pathParams) url = url.replace(`{${parameter.name}}`, '1');
        if (query.size > 0) url += `?${query}`;
        const response = await t.app.inject({
          method: operation.method,
          url,
          remoteAddress: nextIp(),
          ...(operation.method !== 'GET' && operation.body && sample.body !== undefined
            ? { payload: sample.body as object }
            : {}),
        });
        const error = String(response.headers['content-type'] ?? '').includes('json')
          ? String((response.json() as { error?: unknown }).error ?? '')
          : '';
        answer = { status: response.statusCode, error };
        if (!beforeTheGuard.has(response.statusCode)) break;
      }
      if (!answer) continue;
      const said = `declares ${JSON.stringify(declared)}, answers ${answer.status} ${answer.error} without a session`;
      if (required && beforeTheGuard.has(answer.status)) {
        mismatches.push(`${key}: ${said} (no call got past validation)`);
      } else if (required && answer.status !== 401 && answer.status !== 403) {
        mismatches.push(`${key}: ${said}`);
      } else if (!required && sessionRefusals.has(answer.error)) {
        mismatches.push(`${key}: ${said}`);
      }
    }
    expect(mismatches).toEqual([]);
  }, 120_000);

  it("passes Redocly's recommended rules without an error", async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'openapi-lint-'));
    try {
      const file = path.join(dir, 'openapi.json');
      await writeFile(file, JSON.stringify(document));
      const cli = path.join(root, 'node_modules/.bin/redocly');
      const { stdout } = await promisify(execFile)(cli, ['lint', file, '--format=json'], {
        maxBuffer: 64 * 1024 * 1024,
      }).catch((error: { stdout: string }) => error);
      const report = JSON.parse(stdout) as { totals: { errors: number }; problems: unknown[] };
      expect(report.totals.errors, JSON.stringify(report.problems).slice(0, 2000)).toBe(0);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('matches the committed client types (run npm run api:types after changing a route)', async () => {
    const committed = await readFile(path.join(root, 'contract/generated/api.d.ts'), 'utf8');
    expect(await apiTypes(document)).toBe(committed);
  });
});
