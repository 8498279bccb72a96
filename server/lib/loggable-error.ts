// Its own module, importing nothing, so that whatever logs an error (the error handler, the caught
// errors' reporter, the event bus through it) can use it without importing each other.

/** A PostgreSQL error (pg or PGlite) carries its SQLSTATE as a five-character `code`. */
const sqlState = /^[0-9A-Z]{5}$/;

type ErrorLike = {
  name?: unknown;
  message?: unknown;
  code?: unknown;
  stack?: unknown;
  cause?: unknown;
  query?: unknown;
  params?: unknown;
  table?: unknown;
  column?: unknown;
  constraint?: unknown;
  routine?: unknown;
};

const asErrorLike = (value: unknown): ErrorLike | undefined =>
  typeof value === 'object' && value !== null ? (value as ErrorLike) : undefined;

/**
 * What the log may say about a failed request: the error's type, codes, schema names and stack
 * frames. A failed query's text, parameters and the database's message (which quotes the values,
 * e.g. `value "99999999999" is out of range`) are user input and never reach the log.
 */
export function loggableError(error: unknown): Record<string, unknown> {
  const chain: ErrorLike[] = [];
  for (let current = asErrorLike(error); current && chain.length < 5; current = asErrorLike(current.cause)) {
    chain.push(current);
  }
  const database = chain.find((item) => typeof item.code === 'string' && sqlState.test(item.code));
  const isQuery = database !== undefined || chain.some((item) => 'query' in item || 'params' in item);
  const top = chain[0];
  const stack =
    typeof top?.stack === 'string' ? top.stack.split('\n').filter((line) => /^\s+at /.test(line)) : [];
  const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
  return {
    type: text(top?.name) ?? typeof error,
    ...(isQuery
      ? {
          sqlState: text(database?.code),
          table: text(database?.table),
          column: text(database?.column),
          constraint: text(database?.constraint),
          routine: text(database?.routine),
        }
      : { message: text(top?.message), code: text(top?.code) }),
    stack: stack.join('\n'),
  };
}
