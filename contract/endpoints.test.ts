import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registeredRoutes } from '../server/lib/openapi.ts';
import { createTestApp, type TestApp } from '../tests/setup/test-app.ts';
import { declaredEndpoints, endpoints } from './endpoints.ts';

/**
 * Routes under /api/ registered without a declaration. The staff area (/api/admin/…) is left out
 * of this test until its routes move onto declarations too. The list may only shrink: a route that
 * gains a declaration fails the test until it is taken off here.
 */
const expectedMissing: string[] = [
  // The answer to unknown /api/ paths (404 not_found in the error body), one route per method.
  ...['DELETE', 'GET', 'OPTIONS', 'PATCH', 'POST', 'PUT', 'QUERY', 'TRACE'].map(
    (method) => `${method} /api/*`,
  ),
  // The OpenAPI document and its viewer (@fastify/swagger-ui registers these).
  'GET /api/docs',
  'GET /api/docs/json',
  'GET /api/docs/static/*',
  'GET /api/docs/static/index.html',
  'GET /api/docs/static/swagger-initializer.js',
  'GET /api/docs/yaml',
  // A member's data export, registered among the staff routes (moderation.routes.ts).
  'GET /api/export.php',
];

type Route = ReturnType<typeof registeredRoutes>[number];

describe('one contract declaration per call (contract/endpoints.ts)', () => {
  let t: TestApp;
  let routes: Route[];
  let everyRoute: Route[];
  beforeAll(async () => {
    t = await createTestApp();
    await t.app.ready();
    everyRoute = registeredRoutes(t.app);
    routes = everyRoute.filter(
      (route) =>
        route.method !== 'HEAD' && route.url.startsWith('/api/') && !route.url.startsWith('/api/admin/'),
    );
  });
  afterAll(() => t.close());

  const byKey = new Map(declaredEndpoints.map((endpoint) => [endpoint.key, endpoint]));

  it('declares each call once', () => {
    expect(byKey.size).toBe(declaredEndpoints.length);
  });

  it("names every entry of the client's map after its declaration, and each is one of the declarations", () => {
    for (const [key, definition] of Object.entries(endpoints)) {
      expect(key).toBe(`${definition.method} ${definition.path}`);
      expect(byKey.get(key), key).toBe(definition);
    }
  });

  it('registers every member and visitor route from its declaration, and only those lack one that are listed', () => {
    const missing: string[] = [];
    for (const route of routes) {
      const key = `${route.method} ${route.url}`;
      const endpoint = byKey.get(key);
      const schema = route.schema ?? {};
      // Identity, not likeness: the route's schemas must be the declaration's own instances.
      const built =
        endpoint !== undefined &&
        schema.querystring === endpoint.query &&
        schema.params === endpoint.params &&
        schema.body === endpoint.body &&
        schema.response === endpoint.responses &&
        schema.summary === endpoint.summary &&
        JSON.stringify(schema.tags) === JSON.stringify(endpoint.tags);
      if (!built) missing.push(key);
    }
    expect(missing.sort()).toEqual([...expectedMissing].sort());
  });

  // Staff calls already on declarations (the engagement pages') count as registered too.
  it('declares no call the app does not register', () => {
    const registered = new Set(everyRoute.map((route) => `${route.method} ${route.url}`));
    for (const key of byKey.keys()) expect(registered.has(key), key).toBe(true);
  });
});
