import { type FastifyReply, type FastifyRequest, type FastifyServerOptions, LogController } from 'fastify';
import { type DestinationStream, destination } from 'pino';
import type { Config } from '#server/config.ts';
import { isInProcessCall } from './in-process.ts';

const redacted = '[Redacted]';

/**
 * Query parameters whose values are secrets: activation, reset, reactivation and unsubscribe
 * tokens, signed media links (`e`/`s`), payment and OAuth codes, keys and signatures.
 */
const sensitiveKey = /token|secret|passw|sig|auth|session|code|key|hash|otp|^(t|s|sid|pin|nonce)$/i;

export function isSensitiveKey(key: string): boolean {
  return sensitiveKey.test(key);
}

/** A URL (absolute or a path) with the values of its sensitive query parameters replaced. */
export function redactUrl(url: string): string {
  const queryStart = url.indexOf('?');
  if (queryStart === -1) return url;
  const hashStart = url.indexOf('#', queryStart);
  const query = url.slice(queryStart + 1, hashStart === -1 ? undefined : hashStart);
  const parts = query.split('&').map((part) => {
    const equals = part.indexOf('=');
    const rawKey = equals === -1 ? part : part.slice(0, equals);
    let key = rawKey;
    try {
      key = decodeURIComponent(rawKey.replace(/\+/g, ' '));
    } catch {
      // expected: a malformed key (a stray %) is checked as it is.
    }
    return equals !== -1 && isSensitiveKey(key) ? `${rawKey}=${redacted}` : part;
  });
  const hash = hashStart === -1 ? '' : url.slice(hashStart);
  return `${url.slice(0, queryStart)}?${parts.join('&')}${hash}`;
}

/** Log keys holding a URL: their query secrets are cut out, the rest stays for debugging. */
const urlKeys = new Set(['url', 'referer', 'referrer', 'location', 'actionUrl', 'redirectUrl', 'href']);

/** Secrets that never reach a log line, at any of the first levels of a logged object. */
const secretKeys = [
  'password',
  'password_confirmation',
  'current_password',
  'new_password',
  'token',
  'sessionToken',
  'secret',
  'cookie',
  'authorization',
  'sms_code',
  'iban',
];
const urlPaths = [...urlKeys].flatMap((key) => [key, `*.${key}`, `*.*.${key}`]);
const secretPaths = secretKeys.flatMap((key) => [key, `*.${key}`, `*.*.${key}`]);

export const logRedaction = {
  paths: [
    ...secretPaths,
    'req.headers.cookie',
    'req.headers.authorization',
    'req.headers.referer',
    'res.headers["set-cookie"]',
    'headers["set-cookie"]',
    '*.headers["set-cookie"]',
    ...urlPaths,
  ],
  censor: (value: unknown, path: string[]): unknown => {
    const key = path.at(-1) ?? '';
    if (urlKeys.has(key)) return typeof value === 'string' ? redactUrl(value) : redacted;
    return redacted;
  },
};

type LoggedRequest = {
  method: string;
  url: string;
  host?: string;
  ip?: string;
  socket?: { remotePort?: number | undefined } | null;
};

/** Fastify's request serializer, with the URL's secrets cut out (`/api/activate.php?token=[Redacted]`). */
export const logSerializers = {
  req(request: LoggedRequest) {
    return {
      method: request.method,
      url: redactUrl(request.url),
      host: request.host,
      remoteAddress: request.ip,
      remotePort: request.socket?.remotePort,
    };
  },
};

/** Where a request's logger keeps the bindings Fastify gave it (its `reqId`). */
const requestBindings = Symbol('requestBindings');

/**
 * Fastify's logger of each request, made without bindings: pino passes every binding of a child
 * through the redaction (its wildcard paths apply to any key), ~8 µs a request and a page's every
 * in-process call, for a `reqId` that most requests never write. The bindings are kept on
 * the child and added to the lines it does write, by the root's mixin (`requestFields`).
 */
export const childLoggerFactory: NonNullable<FastifyServerOptions['childLoggerFactory']> = (
  logger,
  bindings,
  options,
) => {
  const child = logger.child({}, options);
  Object.defineProperty(child, requestBindings, { value: bindings });
  return child;
};

/** The request's bindings for a line its logger (or a child of it) writes; none outside a request. */
function requestFields(_line: object, _level: number, logger: object): object {
  const bindings: unknown = Reflect.get(logger, requestBindings);
  // A copy: pino merges the line's own fields into what this returns.
  return typeof bindings === 'object' && bindings !== null ? { ...bindings } : {};
}

/** The logger of the app: off for LOG_LEVEL=silent, else pino with redaction (to `stream` in tests). */
export function loggerOptions(config: Pick<Config, 'LOG_LEVEL'>, stream?: DestinationStream) {
  if (config.LOG_LEVEL === 'silent') return false;
  return {
    level: config.LOG_LEVEL,
    redact: logRedaction,
    serializers: logSerializers,
    mixin: requestFields,
    stream: stream ?? standardOutput(),
  };
}

/**
 * Standard output, written without blocking: pino's default waits for every line's write(2), ~0.3 ms
 * of the main thread a request. Lines go out at once when the process is idle and in
 * batches under load; pino writes what is left synchronously when the process exits.
 */
function standardOutput(): DestinationStream {
  return destination({ dest: 1, sync: false });
}

/** The status of a request the client gave up on (nginx's "client closed request"): no answer went out. */
export const clientClosedStatus = 499;

/** Errors of a connection the client closed: a body or an answer cut off halfway. */
const abortCodes = new Set(['ERR_STREAM_PREMATURE_CLOSE', 'ECONNRESET', 'EPIPE', 'ECONNABORTED']);

/**
 * Whether the client went away before the answer was out (a closed tab, a navigation away, a
 * cancelled upload): its request was cut off or its connection is gone, and the error (if any) is
 * one of a cut-off stream. Any other error stays the server's own, a 5xx, whoever is still there.
 */
export function clientGone(request: FastifyRequest, error?: unknown): boolean {
  const raw = request.raw;
  const cutOff = raw.aborted || (raw.destroyed && !raw.complete) || raw.socket?.destroyed === true;
  if (!cutOff) return false;
  if (error === undefined) return true;
  const { code, message } = (typeof error === 'object' && error !== null ? error : {}) as {
    code?: unknown;
    message?: unknown;
  };
  return (
    (typeof code === 'string' && abortCodes.has(code)) ||
    (typeof message === 'string' && /^(aborted|premature close)$/i.test(message))
  );
}

/** Requests whose abort has been logged: the abort hook, the error handler and the access log each see it. */
const abortLogged = new WeakSet<FastifyRequest>();

/** One info line for a request the client gave up on, with status 499; a second call writes none. */
export function logClientClosed(request: FastifyRequest, reply?: FastifyReply, error?: unknown): void {
  if (abortLogged.has(request) || isInProcessCall()) return;
  abortLogged.add(request);
  const code =
    typeof error === 'object' && error !== null && typeof (error as { code?: unknown }).code === 'string'
      ? (error as { code: string }).code
      : undefined;
  request.log.info(
    {
      req: request,
      res: { statusCode: clientClosedStatus },
      ...(reply ? { responseTime: reply.elapsedTime } : {}),
      ...(code ? { cause: code } : {}),
    },
    'request aborted by the client',
  );
}

/**
 * The access log: one line when an answer has gone out, with the request (its URL redacted), the
 * status and the time taken — what Fastify's "incoming request" and "request completed" lines said
 * in two (each line is serialized and redacted: the two cost ~5 % of a page's CPU). The API calls
 * a page makes in-process (web/ssr.ts) write none: the page's line stands for them. Errors are
 * logged as Fastify logs them, but a request the client gave up on is one info line with 499.
 */
export class AccessLog extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    if (isInProcessCall()) return;
    if (error && clientGone(request, error)) {
      logClientClosed(request, reply, error);
    } else if (error) {
      reply.log.error(
        { req: request, res: reply, err: error, responseTime: reply.elapsedTime },
        'request errored',
      );
    } else {
      reply.log.info({ req: request, res: reply, responseTime: reply.elapsedTime }, 'request completed');
    }
  }

  /** A streamed answer the client stopped reading: info with 499, not the 200 its headers said. */
  override streamError(error: Error, request: FastifyRequest, reply: FastifyReply): void {
    if (clientGone(request, error)) {
      logClientClosed(request, reply, error);
      return;
    }
    super.streamError(error, request, reply);
  }
}
