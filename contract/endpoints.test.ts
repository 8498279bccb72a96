import type { OpenAPI3 } from 'openapi-typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../tests/setup/test-app.ts';
import { type EndpointDefinition, endpoints } from './endpoints.ts';

describe('the typed endpoint map (contract/endpoints.ts)', () => {
  let t: TestApp;
  let paths: Record<string, Record<string, { requestBody?: unknown; parameters?: unknown[] }>>;
  beforeAll(async () => {
    t = await createTestApp();
    await t.app.ready();
    const document = t.app.swagger() as OpenAPI3;
    paths = (document.paths ?? {}) as typeof paths;
  });
  afterAll(() => t.close());

  const entries: [string, EndpointDefinition][] = Object.entries(endpoints);

  it('names every entry "METHOD /path" after its own method and path', () => {
    for (const [key, definition] of entries) expect(key).toBe(`${definition.method} ${definition.path}`);
  });

  it.each(entries)('%s exists in the OpenAPI document with the same method', (_key, definition) => {
    const operation = paths[definition.path]?.[definition.method.toLowerCase()];
    expect(operation, `${definition.method} ${definition.path}`).toBeDefined();
  });

  it('has a body only where the API takes one and a query only where it reads one', () => {
    for (const [key, definition] of entries) {
      const operation = paths[definition.path]?.[definition.method.toLowerCase()];
      if (definition.body !== undefined && definition.method !== 'DELETE') {
        expect(operation?.requestBody, key).toBeDefined();
      }
      if (definition.query !== undefined) {
        expect(operation?.parameters?.length ?? 0, key).toBeGreaterThan(0);
      }
    }
  });
});
