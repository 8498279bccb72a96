import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { OpenAPI3 } from 'openapi-typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiTypes } from '../../scripts/openapi.ts';
import { createTestApp, type TestApp } from '../../tests/setup/test-app.ts';
import { operationIdFor, registeredRoutes } from './openapi.ts';

const root = path.resolve(import.meta.dirname, '../..');
/** Routes that are no API call: the catch-all 404, the documentation itself. */
const undocumented = [/^\/api\/\*$/, /^\/api\/docs/];

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
