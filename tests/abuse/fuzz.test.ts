import { writeFileSync } from 'node:fs';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activeMember, goodPassword, nextIp, sessionCookie } from '../setup/members.ts';
import { createTestApp, type TestApp } from '../setup/test-app.ts';
import { contractViolation } from './contract-shape.ts';
import { type FuzzRequest, requestFor } from './generators.ts';
import { apiOperations, type Operation } from './openapi.ts';

/**
 * Every operation of the OpenAPI document gets FUZZ_RUNS requests drawn from its own schema, mostly
 * a little wrong (wrong types, huge or NUL strings, huge ids, arrays, prototype keys, broken JSON and
 * multipart, bad Host), with and without a member's session. None may answer 5xx, and every 4xx is
 * the contract's `{"error", "message"}` (422 with `fields`). The seed is fixed, so a failure repeats;
 * docs/security/fuzzing.md has the command for the big run.
 */
const runs = Number(process.env.FUZZ_RUNS ?? 20);
const seed = Number(process.env.FUZZ_SEED ?? 20261123);
const reportFile = process.env.FUZZ_REPORT;

/** Operations that end the session or the account: fuzzed too, then the member logs in again. */
const endsSession = (operation: Operation) =>
  operation.path === '/api/logout.php' ||
  (operation.path === '/api/user.php' && operation.method === 'DELETE');

type Failure = { request: FuzzRequest; status: number; body: string };

describe('fuzzing every API operation', () => {
  let t: TestApp;
  let operations: Operation[];
  let email: string;
  let cookie: string;
  const counts = new Map<string, { requests: number; statuses: Record<string, number> }>();

  const login = async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/user.php',
      remoteAddress: nextIp(),
      payload: { email, password: goodPassword },
    });
    cookie = sessionCookie(response);
  };

  beforeAll(async () => {
    t = await createTestApp();
    const member = await activeMember(t.app);
    email = member.email;
    cookie = member.cookie;
    operations = await apiOperations(t.app);
  });

  afterAll(async () => {
    if (reportFile) {
      const total = [...counts.values()].reduce((sum, entry) => sum + entry.requests, 0);
      writeFileSync(
        reportFile,
        JSON.stringify({ seed, runs, total, byTag: Object.fromEntries(counts) }, null, 2),
      );
    }
    await t?.close();
  });

  it('finds the operations in the OpenAPI document', () => {
    const names = operations.map((operation) => `${operation.method} ${operation.path}`);
    // A handful that must be there; the list grows with every route, nothing to keep in step here.
    expect(names).toEqual(
      expect.arrayContaining([
        'POST /api/like.php',
        'GET /api/member.php',
        'POST /api/chat.php',
        'POST /api/photos.php',
      ]),
    );
    expect(operations.length).toBeGreaterThan(50);
  });

  it(
    `answers ${runs} hostile requests per operation without a 5xx, each 4xx in the contract's shape`,
    async () => {
      const failures: (Failure & { problem: string })[] = [];
      for (const [index, operation] of operations.entries()) {
        const samples = fc.sample(requestFor(operation), { numRuns: runs, seed: seed + index });
        for (const request of samples) {
          const headers: Record<string, string> = {};
          if (request.contentType !== undefined) headers['content-type'] = request.contentType;
          if (request.host !== undefined) headers.host = request.host;
          if (request.withSession) headers.cookie = cookie;
          const response = await t.app.inject({
            method: request.method,
            url: request.url,
            headers,
            remoteAddress: nextIp(),
            ...(request.payload !== undefined ? { payload: request.payload } : {}),
          });
          const tally = counts.get(operation.tag) ?? { requests: 0, statuses: {} };
          tally.requests++;
          tally.statuses[String(response.statusCode)] =
            (tally.statuses[String(response.statusCode)] ?? 0) + 1;
          counts.set(operation.tag, tally);
          const problem = contractViolation(response);
          if (problem) {
            failures.push({
              request,
              status: response.statusCode,
              body: response.body.slice(0, 300),
              problem,
            });
          }
          if (endsSession(operation) && request.withSession) await login();
        }
      }
      const shown = failures.slice(0, 15).map((failure) => ({
        problem: failure.problem,
        request: `${failure.request.method} ${failure.request.url.slice(0, 200)}`,
        contentType: failure.request.contentType,
        payload: String(failure.request.payload ?? '').slice(0, 200),
        host: failure.request.host,
        body: failure.body,
      }));
      expect(shown, `${failures.length} answers broke the contract`).toEqual([]);
    },
    Math.max(120_000, runs * 6_000),
  );
});
