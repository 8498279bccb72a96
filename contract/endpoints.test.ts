import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registeredRoutes } from '../server/lib/openapi.ts';
import { createTestApp, type TestApp } from '../tests/setup/test-app.ts';
import { declaredEndpoints, endpoints } from './endpoints.ts';
import { declaredStaffEndpoints, staffEndpoints } from './staff-endpoints.ts';

/**
 * Routes under /api/ registered without a declaration. The list may only shrink: a route that
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
];

type Route = ReturnType<typeof registeredRoutes>[number];

describe('one contract declaration per call (contract/endpoints.ts, contract/staff-endpoints.ts)', () => {
  let t: TestApp;
  let routes: Route[];
  beforeAll(async () => {
    t = await createTestApp();
    await t.app.ready();
    routes = registeredRoutes(t.app).filter(
      (route) => route.method !== 'HEAD' && route.url.startsWith('/api/'),
    );
  });
  afterAll(() => t.close());

  const declared = [...declaredEndpoints, ...declaredStaffEndpoints];
  const byKey = new Map(declared.map((endpoint) => [endpoint.key, endpoint]));

  it('declares each call once', () => {
    expect(byKey.size).toBe(declared.length);
  });

  it("names every entry of the clients' maps after its declaration, and each is one of the declarations", () => {
    for (const [key, definition] of [...Object.entries(endpoints), ...Object.entries(staffEndpoints)]) {
      expect(key).toBe(`${definition.method} ${definition.path}`);
      expect(byKey.get(key), key).toBe(definition);
    }
  });

  it("keeps the staff calls out of the members' map and the members' out of the staff map", () => {
    for (const definition of Object.values(endpoints)) {
      expect(definition.path.startsWith('/api/admin/'), definition.key).toBe(false);
    }
    for (const definition of Object.values(staffEndpoints)) {
      expect(definition.path.startsWith('/api/admin/'), definition.key).toBe(true);
    }
  });

  it('registers every member, visitor and staff route from its declaration, and only those lack one that are listed', () => {
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

  it('declares no call the app does not register', () => {
    const registered = new Set(routes.map((route) => `${route.method} ${route.url}`));
    for (const key of byKey.keys()) expect(registered.has(key), key).toBe(true);
  });
});
