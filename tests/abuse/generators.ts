import fc from 'fast-check';
import type { JsonSchema, Operation } from './openapi.ts';

/** Strings that broke or could break something: NUL, lone surrogates, huge, SQL, paths, numbers as text. */
export const evilStrings = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\ud800',
  '\udfff\ud800',
  '😀'.repeat(300),
  'x'.repeat(10_000),
  '-1',
  '0',
  '2147483648',
  '99999999999',
  '9223372036854775808',
  '1e309',
  '-0',
  'NaN',
  'Infinity',
  '0x10',
  '1.5',
  '%',
  '%00',
  "' OR 1=1 --",
  '"; DROP TABLE users; --',
  '<script>alert(1)</script>',
  '../../../etc/passwd',
  'true',
  'null',
  '[]',
  '{}',
  '__proto__',
  'constructor',
  '\r\nX-Injected: 1',
  '\u202e\u200b\ufeff',
  'İ'.repeat(50),
];

const evilNumbers = [
  -1,
  0,
  1.5,
  -2147483649,
  2147483648,
  99999999999,
  Number.MAX_SAFE_INTEGER + 2,
  2 ** 63,
  1e308,
  -1e308,
  Number.MIN_VALUE,
];

/** A drawn value as query text (objects from fc may lack a prototype, so no String()). */
function asText(value: unknown): string {
  return typeof value === 'string' ? value : (JSON.stringify(value) ?? '');
}

/** `value` once in `n` draws, else null. */
function rarely<T>(value: fc.Arbitrary<T>, n: number): fc.Arbitrary<T | null> {
  return fc.oneof({ weight: n - 1, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: value });
}

/** A value of any type a client could send instead of the right one. */
export const evilValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...evilStrings) },
  { weight: 3, arbitrary: fc.constantFrom(...evilNumbers) },
  { weight: 1, arbitrary: fc.constantFrom(null, true, false, [], {}, [1, 2, 3], { a: { b: { c: [] } } }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 1, arbitrary: fc.array(fc.constantFrom(...evilStrings), { maxLength: 5 }) },
);

function typesOf(schema: JsonSchema): string[] {
  if (Array.isArray(schema.type)) return schema.type;
  return schema.type ? [schema.type] : [];
}

/** A value the schema probably accepts (valid shapes get the request past validation, to the code behind it). */
export function plausible(schema: JsonSchema, depth = 0): fc.Arbitrary<unknown> {
  if (depth > 6) return fc.constant(null);
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum && schema.enum.length > 0) return fc.constantFrom(...schema.enum);
  const choices = [...(schema.anyOf ?? []), ...(schema.oneOf ?? [])];
  if (choices.length > 0) return fc.oneof(...choices.map((choice) => plausible(choice, depth + 1)));
  if (schema.allOf && schema.allOf.length > 0) return plausible(schema.allOf[0] ?? {}, depth + 1);
  const type = typesOf(schema).find((name) => name !== 'null') ?? (schema.properties ? 'object' : 'string');
  switch (type) {
    case 'integer': {
      const min = typeof schema.minimum === 'number' ? schema.minimum : -1000;
      const max = typeof schema.maximum === 'number' ? Math.min(schema.maximum, 2_147_483_647) : 1000;
      return fc.oneof(
        fc.integer({ min: Math.max(min, 1), max: Math.max(Math.min(max, 400), Math.max(min, 1)) }),
        fc.integer({ min: Math.max(min, -2_147_483_648), max }),
      );
    }
    case 'number':
      return fc.double({
        min: typeof schema.minimum === 'number' ? schema.minimum : -1e6,
        max: typeof schema.maximum === 'number' ? schema.maximum : 1e6,
        noNaN: true,
      });
    case 'boolean':
      return fc.boolean();
    case 'array':
      return fc.array(plausible(schema.items ?? {}, depth + 1), { maxLength: 4 });
    case 'object':
      return objectOf(schema, depth, plausible);
    default:
      return plausibleString(schema);
  }
}

function plausibleString(schema: JsonSchema): fc.Arbitrary<string> {
  const max = Math.min(schema.maxLength ?? 60, 60);
  const min = Math.min(schema.minLength ?? 0, max);
  switch (schema.format) {
    case 'email':
      return fc.emailAddress();
    case 'date':
      return fc
        .date({ min: new Date('1900-01-01'), max: new Date('2100-01-01'), noInvalidDate: true })
        .map((date) => date.toISOString().slice(0, 10));
    case 'uri':
      return fc.webUrl();
  }
  if (schema.pattern === '^[A-Z]{2}$') return fc.constantFrom('NL', 'DE', 'US', 'ZZ', 'BE');
  return fc.string({ minLength: min, maxLength: max });
}

/** A value that is wrong for this schema in a way that once reached the database: NUL, out of range. */
export function badFor(schema: JsonSchema): fc.Arbitrary<unknown> {
  const type = typesOf(schema).find((name) => name !== 'null');
  const nearMisses: fc.Arbitrary<unknown>[] = [evilValue];
  if (type === 'string' || type === undefined) {
    nearMisses.push(
      fc
        .tuple(plausible(schema), fc.constantFrom('\u0000', '\ud800', '\u0000\u0000'))
        .map(([value, bad]) => `${asText(value)}${bad}`),
    );
  }
  if (type === 'integer' || type === 'number') {
    nearMisses.push(
      fc.constantFrom(2_147_483_648, 99_999_999_999, -2_147_483_649, 0, -1, 1.5, 1e308),
      typeof schema.maximum === 'number' ? fc.constant(schema.maximum + 1) : fc.constant(2_147_483_648),
    );
  }
  return fc.oneof(...nearMisses);
}

/**
 * A body for the schema: mostly a plausible one with exactly one field wrong (so validation of the
 * others passes and the wrong one reaches as far as it can), sometimes every field drawn at random.
 */
export function fuzzed(schema: JsonSchema, depth = 0): fc.Arbitrary<unknown> {
  if (depth > 6) return evilValue;
  const names = Object.keys(schema.properties ?? {});
  if (typesOf(schema)[0] !== 'object' || names.length === 0) {
    return fc.oneof(
      { weight: 3, arbitrary: plausible(schema, depth) },
      { weight: 2, arbitrary: badFor(schema) },
    );
  }
  const oneWrong = fc
    .constantFrom(...names)
    .chain((name) =>
      fc
        .tuple(objectOf(schema, depth, plausible), badFor(schema.properties?.[name] ?? {}))
        .map(([value, bad]) => ({ ...value, [name]: bad })),
    );
  const anyWrong = objectOf(schema, depth, (property, level) =>
    fc.oneof({ weight: 3, arbitrary: plausible(property, level) }, { weight: 1, arbitrary: evilValue }),
  );
  return fc.oneof({ weight: 5, arbitrary: oneWrong }, { weight: 2, arbitrary: anyWrong });
}

function objectOf(
  schema: JsonSchema,
  depth: number,
  field: (schema: JsonSchema, depth: number) => fc.Arbitrary<unknown>,
): fc.Arbitrary<Record<string, unknown>> {
  const properties = schema.properties ?? {};
  const required = new Set(schema.required ?? []);
  const model = Object.fromEntries(
    Object.entries(properties).map(([name, property]) => [name, field(property, depth + 1)]),
  );
  const requiredKeys = [...required].filter((name) => name in model);
  return fc
    .tuple(
      fc.record(model, { requiredKeys }),
      requiredKeys.length > 0 ? rarely(fc.constantFrom(...requiredKeys), 6) : fc.constant(null),
      rarely(fc.dictionary(fc.constantFrom('extra', 'constructor', 'prototype', 'toString'), evilValue), 5),
    )
    .map(([record, dropped, extra]) => {
      // Required fields are there most of the time, so validation passes and the handler runs.
      const value: Record<string, unknown> = { ...record };
      if (dropped !== null) delete value[dropped];
      return extra ? { ...value, ...extra } : value;
    });
}

/** Bytes that start like a JPEG and stop: the truncated upload of the audit. */
const truncatedJpeg = Buffer.from([
  0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01,
  0x00, 0x00, 0xff, 0xdb, 0x00, 0x43, 0x00, 0x08,
]);

export type RawBody = { contentType: string | undefined; payload: string | Buffer };

function multipart(boundary: string, file: Buffer, filename: string, type: string): Buffer {
  return Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`,
    ),
    file,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
}

/** Bodies no schema describes: broken JSON, prototype keys, wrong types, broken multipart. */
export const rawBody: fc.Arbitrary<RawBody> = fc.constantFrom<RawBody>(
  { contentType: 'application/json', payload: '{"profile": 1,' },
  { contentType: 'application/json', payload: '' },
  { contentType: 'application/json', payload: 'null' },
  { contentType: 'application/json', payload: '[]' },
  { contentType: 'application/json', payload: '"text"' },
  { contentType: 'application/json', payload: '1e999' },
  { contentType: 'application/json', payload: '{"__proto__": {"admin": true}, "profile": 1}' },
  { contentType: 'application/json', payload: '{"constructor": {"prototype": {"admin": true}}}' },
  { contentType: 'application/json', payload: `${'['.repeat(5000)}${']'.repeat(5000)}` },
  { contentType: 'application/json', payload: '{"text": "\\u0000"}' },
  { contentType: 'application/json', payload: '{"text": "\\ud800"}' },
  { contentType: 'application/json; charset=utf-16', payload: '{}' },
  { contentType: 'text/plain', payload: 'profile=1' },
  { contentType: 'application/x-www-form-urlencoded', payload: 'profile=1&text=%00' },
  { contentType: undefined, payload: 'profile=1' },
  { contentType: 'multipart/form-data', payload: '--x\r\n\r\n' },
  {
    contentType: 'multipart/form-data; boundary=b',
    payload: '--b\r\nContent-Disposition: form-data\r\n\r\nx',
  },
  {
    contentType: 'multipart/form-data; boundary=b',
    payload: multipart('b', truncatedJpeg, 'a.jpg', 'image/jpeg'),
  },
  {
    contentType: 'multipart/form-data; boundary=b',
    payload: multipart('b', Buffer.from('<svg onload=alert(1)>'), 'a.svg', 'image/svg+xml'),
  },
  {
    contentType: 'multipart/form-data; boundary=b',
    payload: multipart('b', Buffer.alloc(0), '', 'image/png'),
  },
  {
    contentType: 'multipart/form-data; boundary=b',
    payload: multipart('b', truncatedJpeg, '\u0000.jpg', 'application/octet-stream'),
  },
);

export type FuzzRequest = {
  method: Operation['method'];
  url: string;
  contentType: string | undefined;
  payload: string | Buffer | undefined;
  host: string | undefined;
  withSession: boolean;
};

const hostileHosts = ['[::1', 'evil.test:99999', 'a b', 'evil.test/x', '', '[zz]'];

/** A browser sends a lone surrogate as U+FFFD (what String#toWellFormed does). */
function wellFormed(value: string): string {
  return value.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd');
}

function queryString(pairs: [string, string][]): string {
  return pairs
    .map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(wellFormed(value))}`)
    .join('&');
}

const stringValue = (schema: JsonSchema): fc.Arbitrary<string> =>
  fc.oneof(
    { weight: 3, arbitrary: plausible(schema).map(asText) },
    { weight: 2, arbitrary: fc.constantFrom(...evilStrings) },
  );

/**
 * A page past the end of a list (a link kept from yesterday, a hand-edited URL): every other query
 * parameter plausible or left out, so the list's own filters apply or none do, with a session.
 */
function pastTheEnd(operation: Operation): fc.Arbitrary<FuzzRequest> | undefined {
  const page = operation.query.find((parameter) => parameter.name === 'page');
  if (!page || operation.method !== 'GET') return undefined;
  const filters = operation.query.filter((parameter) => parameter !== page);
  return fc
    .record({
      values: fc.tuple(
        ...filters.map((parameter) => fc.option(plausible(parameter.schema), { nil: undefined })),
      ),
      withFilters: fc.boolean(),
      page: fc.constantFrom('2', '3', '99', '10000'),
    })
    .map(({ values, withFilters, page: number }) => {
      const pairs: [string, string][] = withFilters
        ? filters.flatMap((parameter, index): [string, string][] =>
            values[index] === undefined ? [] : [[parameter.name, asText(values[index])]],
          )
        : [];
      pairs.push(['page', number]);
      return {
        method: operation.method,
        url: `${operation.path}?${queryString(pairs)}`,
        contentType: undefined,
        payload: undefined,
        host: undefined,
        withSession: true,
      };
    });
}

/** One request to an operation: its query, path and body drawn from its schema, mostly a little wrong. */
export function requestFor(operation: Operation): fc.Arbitrary<FuzzRequest> {
  const main = anyRequestFor(operation);
  const beyond = pastTheEnd(operation);
  return beyond ? fc.oneof({ weight: 4, arbitrary: main }, { weight: 1, arbitrary: beyond }) : main;
}

function anyRequestFor(operation: Operation): fc.Arbitrary<FuzzRequest> {
  // One query parameter is wrong, the others plausible; sometimes a parameter is missing or repeated.
  const params = fc.integer({ min: -1, max: Math.max(operation.query.length - 1, 0) }).chain((wrong) =>
    fc.tuple(
      ...operation.query.map((parameter, index) =>
        fc.oneof(
          {
            weight: 8,
            arbitrary: (index === wrong ? badFor(parameter.schema) : plausible(parameter.schema)).map(
              (value) => [typeof value === 'string' ? value : (JSON.stringify(value) ?? '')],
            ),
          },
          { weight: 1, arbitrary: fc.constant<string[]>([]) },
          { weight: 1, arbitrary: fc.array(stringValue(parameter.schema), { minLength: 2, maxLength: 3 }) },
        ),
      ),
    ),
  );
  const pathValues = fc.tuple(...operation.pathParams.map((parameter) => stringValue(parameter.schema)));
  const hasBody = operation.method !== 'GET';
  const body: fc.Arbitrary<RawBody | undefined> = !hasBody
    ? fc.constant(undefined)
    : operation.body
      ? fc.oneof(
          {
            weight: 5,
            arbitrary: fuzzed(operation.body).map((value) => ({
              contentType: 'application/json',
              payload: JSON.stringify(value) ?? 'null',
            })),
          },
          { weight: 2, arbitrary: rawBody },
        )
      : fc.oneof(fc.constant(undefined), rawBody);
  return fc
    .record({
      params,
      pathValues,
      body,
      host: rarely(fc.constantFrom(...hostileHosts), 12),
      // Escapes no browser sends: a lone %, broken UTF-8, an encoded surrogate.
      rawQuery: rarely(fc.constantFrom('%', 'x=%C3%28', 'x=%ED%A0%80', '%00=%00', '&&=='), 10),
      withSession: fc.boolean(),
    })
    .map(({ params: values, pathValues: pathParts, body: drawn, host, rawQuery, withSession }) => {
      let path = operation.path;
      operation.pathParams.forEach((parameter, index) => {
        path = path.replace(`{${parameter.name}}`, encodeURIComponent(wellFormed(pathParts[index] ?? '')));
      });
      const pairs: [string, string][] = operation.query.flatMap((parameter, index) =>
        (values[index] ?? []).map((value): [string, string] => [parameter.name, value]),
      );
      const search = [queryString(pairs), rawQuery].filter(Boolean).join('&');
      return {
        method: operation.method,
        url: search ? `${path}?${search}` : path,
        contentType: drawn?.contentType,
        payload: drawn?.payload,
        host: host ?? undefined,
        withSession,
      };
    });
}
