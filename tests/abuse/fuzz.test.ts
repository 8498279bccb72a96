import { writeFileSync } from 'node:fs';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StaffRole } from '../../server/db/schema/staff.ts';
import { activeMember, goodPassword, nextIp, sessionCookie } from '../setup/members.ts';
import { newStaffSession, signedInStaff } from '../setup/staff.ts';
import { createTestApp, type TestApp } from '../setup/test-app.ts';
import { contractViolation } from './contract-shape.ts';
import { type FuzzRequest, plausible, requestFor } from './generators.ts';
import { apiOperations, type JsonSchema, type Operation } from './openapi.ts';

/**
 * Every operation of the OpenAPI document gets FUZZ_RUNS requests drawn from its own schema, mostly
 * a little wrong (wrong types, huge or NUL strings, huge ids, arrays, prototype keys, broken JSON and
 * multipart, bad Host), with and without a member's session; the staff area's operations again with
 * the session of each staff role. None may answer 5xx, and every 4xx is the contract's
 * `{"error", "message"}` (422 with `fields`). The seed is fixed, so a failure repeats;
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

const staffRoles: StaffRole[] = ['operator', 'moderator', 'admin'];
const isStaffOperation = (operation: Operation) => operation.path.startsWith('/api/admin/');

/** The answer that says the staff session is gone: the fuzzer signed out or ended its own session. */
const staffSessionLost = (status: number, body: string) =>
  status === 403 && body.includes('"error":"staff_required"');

type IntegerField = {
  where: 'query' | 'path' | 'body';
  name: string;
  /** The body (or the variant of a union body) the field is in: the rest of the call is drawn from it. */
  body: JsonSchema | undefined;
};

/** Integer fields of an operation (query, path and top-level body): its ids, counts and amounts. */
function integerFields(operation: Operation): IntegerField[] {
  const isInteger = (schema: JsonSchema): boolean =>
    [schema, ...(schema.anyOf ?? []), ...(schema.oneOf ?? [])].some(
      (part) => part.type === 'integer' || (Array.isArray(part.type) && part.type.includes('integer')),
    ) ||
    (schema.type === 'array' && schema.items !== undefined && isInteger(schema.items));
  const union = [...(operation.body?.anyOf ?? []), ...(operation.body?.oneOf ?? [])];
  const variants = union.length > 0 ? union : operation.body ? [operation.body] : [];
  return [
    ...operation.query
      .filter((parameter) => isInteger(parameter.schema))
      .map((parameter) => ({ where: 'query' as const, name: parameter.name, body: variants[0] })),
    ...operation.pathParams
      .filter((parameter) => isInteger(parameter.schema))
      .map((parameter) => ({ where: 'path' as const, name: parameter.name, body: variants[0] })),
    ...variants.flatMap((body) =>
      Object.entries(body.properties ?? {})
        .filter(([, schema]) => isInteger(schema))
        .map(([name]) => ({ where: 'body' as const, name, body })),
    ),
  ];
}

describe('fuzzing every staff operation with the session of each role', () => {
  let t: TestApp;
  let operations: Operation[];
  const cookies = new Map<StaffRole, string>();
  const ids = new Map<StaffRole, number>();
  /** Per role: requests, statuses and the operations fuzzed, for FUZZ_REPORT. */
  const tallies = new Map<StaffRole | 'none', { requests: number; statuses: Record<string, number> }>();
  const fuzzed = new Set<string>();

  beforeAll(async () => {
    t = await createTestApp();
    operations = (await apiOperations(t.app)).filter(isStaffOperation);
    for (const role of staffRoles) {
      const staff = await signedInStaff(t.app, role);
      cookies.set(role, staff.cookie);
      ids.set(role, staff.id);
    }
  });
  afterAll(async () => {
    if (reportFile && tallies.size > 0) {
      const total = [...tallies.values()].reduce((sum, entry) => sum + entry.requests, 0);
      writeFileSync(
        reportFile.replace(/(\.json)?$/, '.staff.json'),
        JSON.stringify(
          { seed, runs, total, operations: fuzzed.size, byRole: Object.fromEntries(tallies) },
          null,
          2,
        ),
      );
    }
    await t?.close();
  });

  /** One call as a staff member of the role; a lost session is renewed for the next call. */
  const send = async (role: StaffRole | null, request: Omit<FuzzRequest, 'withSession'>) => {
    const headers: Record<string, string> = {};
    if (request.contentType !== undefined) headers['content-type'] = request.contentType;
    if (request.host !== undefined) headers.host = request.host;
    if (role) headers.cookie = cookies.get(role)!;
    const response = await t.app.inject({
      method: request.method,
      url: request.url,
      headers,
      remoteAddress: nextIp(),
      ...(request.payload !== undefined ? { payload: request.payload } : {}),
    });
    if (role && staffSessionLost(response.statusCode, response.body)) {
      cookies.set(role, await newStaffSession(t.app, ids.get(role)!));
    }
    return response;
  };

  it('finds the staff operations', () => {
    const names = operations.map((operation) => `${operation.method} ${operation.path}`);
    expect(names).toEqual(
      expect.arrayContaining([
        'POST /api/admin/claim.php',
        'POST /api/admin/refund.php',
        'GET /api/admin/member.php',
        'PUT /api/admin/bundles.php',
      ]),
    );
    expect(operations.length).toBeGreaterThan(40);
  });

  it('answers ids that are too big, negative, fractional or no number with a 4xx on every staff operation', async () => {
    const badIds: unknown[] = [2_147_483_648, -1, 1.5, 'x'];
    const failures: string[] = [];
    let checked = 0;
    for (const [index, operation] of operations.entries()) {
      const fields = integerFields(operation);
      if (fields.length === 0) continue;
      checked++;
      for (const field of fields) {
        // A few plausible calls, each with this field made wrong: the other fields pass validation.
        const bases = fc.sample(
          fc.record({
            query: fc.tuple(...operation.query.map((parameter) => plausible(parameter.schema))),
            body: field.body ? plausible(field.body) : fc.constant(undefined),
          }),
          { numRuns: 3, seed: seed + index },
        );
        for (const bad of badIds) {
          for (const base of bases) {
            const query = new URLSearchParams();
            operation.query.forEach((parameter, position) => {
              const value =
                field.where === 'query' && parameter.name === field.name ? bad : base.query[position];
              if (value !== undefined)
                query.set(parameter.name, typeof value === 'string' ? value : JSON.stringify(value));
            });
            let path = operation.path;
            for (const parameter of operation.pathParams) {
              const value = field.where === 'path' && parameter.name === field.name ? bad : 1;
              path = path.replace(`{${parameter.name}}`, encodeURIComponent(String(value)));
            }
            const body =
              operation.method === 'GET'
                ? undefined
                : field.where === 'body'
                  ? { ...(base.body as Record<string, unknown> | undefined), [field.name]: bad }
                  : base.body;
            const search = query.toString();
            const request = {
              method: operation.method,
              url: search ? `${path}?${search}` : path,
              contentType: body === undefined ? undefined : 'application/json',
              payload: body === undefined ? undefined : JSON.stringify(body),
              host: undefined,
            };
            const response = await send('admin', request);
            // -1 is a fine amount (a credit correction may take one off); nothing else may pass.
            const problem =
              contractViolation(response) ??
              (bad !== -1 && response.statusCode < 400 ? `accepted ${field.name}=${String(bad)}` : undefined);
            if (problem) {
              failures.push(
                `${problem}: ${request.method} ${request.url} ${(request.payload ?? '').slice(0, 200)} → ${response.body.slice(0, 200)}`,
              );
            }
          }
        }
      }
    }
    expect(checked).toBeGreaterThan(20);
    expect(failures.slice(0, 20), `${failures.length} answers broke the contract`).toEqual([]);
  }, 120_000);

  it(
    `answers ${runs} hostile requests per staff operation and role without a 5xx, each 4xx in the contract's shape`,
    async () => {
      const failures: string[] = [];
      for (const [roleIndex, role] of staffRoles.entries()) {
        for (const [index, operation] of operations.entries()) {
          const samples = fc.sample(requestFor(operation), {
            numRuns: runs,
            seed: seed + 1000 * (roleIndex + 1) + index,
          });
          for (const request of samples) {
            const response = await send(request.withSession ? role : null, request);
            const tally = tallies.get(request.withSession ? role : 'none') ?? { requests: 0, statuses: {} };
            tally.requests++;
            tally.statuses[String(response.statusCode)] =
              (tally.statuses[String(response.statusCode)] ?? 0) + 1;
            tallies.set(request.withSession ? role : 'none', tally);
            fuzzed.add(`${operation.method} ${operation.path}`);
            const problem = contractViolation(response);
            if (problem) {
              failures.push(
                `${role}: ${problem}: ${request.method} ${request.url.slice(0, 200)} ${String(request.payload ?? '').slice(0, 200)} → ${response.body.slice(0, 200)}`,
              );
            }
          }
        }
      }
      expect(failures.slice(0, 15), `${failures.length} answers broke the contract`).toEqual([]);
    },
    Math.max(120_000, runs * 18_000),
  );
});
