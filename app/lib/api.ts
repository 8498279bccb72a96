import type { z } from 'zod';
import type { ErrorBody } from '#contract/common.ts';
import type { commonErrorCodes, EndpointKey, Endpoints, Method } from '#contract/endpoints.ts';
import { announceAuthenticationRequired, maxRetries, retryDelayMs } from './api-client.ts';
import type { ApiCaller } from './load-context.ts';
import { loadSchemasInSteps } from './schemas-in-steps.ts';

export type { EndpointKey } from '#contract/endpoints.ts';

type Definition<K extends EndpointKey> = Endpoints[K];

/** The 2xx body of a call, as its contract schema says. */
export type ResponseOf<K extends EndpointKey> = z.output<Definition<K>['response']>;
export type QueryOf<K extends EndpointKey> =
  Definition<K> extends { query: infer Q extends z.ZodType } ? z.input<Q> : undefined;
export type BodyOf<K extends EndpointKey> =
  Definition<K> extends { body: infer B extends z.ZodType } ? z.input<B> : undefined;
/** The error codes a call can answer with: its own and the common ones. */
export type ErrorCodeOf<K extends EndpointKey> =
  | Definition<K>['errors'][number]
  | (typeof commonErrorCodes)[number];

export type ApiSuccess<K extends EndpointKey> = {
  ok: true;
  status: number;
  data: ResponseOf<K>;
  /** Set-Cookie headers of the answer (in-process calls only), for an action to hand on. */
  setCookies: string[];
};
export type ApiFailure<K extends EndpointKey = EndpointKey> = {
  ok: false;
  /** 0 when the request never reached the server (offline). */
  status: number;
  /** The error code, narrowed to the codes the contract lists for this call (else internal_error). */
  code: ErrorCodeOf<K>;
  error: ErrorBody;
  setCookies: string[];
};
/** Success and failure told apart by `ok`: a caller cannot read `data` before checking it. */
export type ApiOutcome<K extends EndpointKey> = ApiSuccess<K> | ApiFailure<K>;

/** A query or body whose fields are all optional may be left out. */
type Optional<T> = undefined extends T ? true : Record<never, never> extends T ? true : false;
type RequestOf<K extends EndpointKey> = (Optional<QueryOf<K>> extends true
  ? { query?: QueryOf<K> }
  : { query: QueryOf<K> }) &
  (Optional<BodyOf<K>> extends true ? { body?: BodyOf<K> } : { body: BodyOf<K> }) & { signal?: AbortSignal };
type RequestArgs<K extends EndpointKey> =
  Record<never, never> extends RequestOf<K> ? [request?: RequestOf<K>] : [request: RequestOf<K>];

/** Carries one HTTP call: in-process on the server (decision 002), fetch in the browser. */
export type Transport = (
  path: string,
  init: { method: Method; body?: unknown; signal?: AbortSignal | undefined },
) => Promise<{ status: number; data: unknown; setCookies: string[] }>;

export type TypedApi = <K extends EndpointKey>(key: K, ...args: RequestArgs<K>) => Promise<ApiOutcome<K>>;

/**
 * The endpoint map and its schemas (and with them zod) load with the first call, not with the page:
 * a public page paints and hydrates without them, and most never call the API.
 */
let contractModule: Promise<typeof import('./api-contract.ts')> | undefined;
export function loadContract() {
  contractModule ??= loadSchemasInSteps().then(() => import('./api-contract.ts'));
  contractModule.catch(() => {
    // expected: the caller awaits the same promise and gets the error; it is only not kept.
    contractModule = undefined;
  });
  return contractModule;
}

function isOneOf<T extends string>(list: readonly T[], value: string): value is T {
  return list.some((item) => item === value);
}

/** A path with its query string; absent values are left out. */
export function withQuery(path: string, query: unknown): string {
  if (typeof query !== 'object' || query === null) return path;
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    params.set(name, String(value));
  }
  const search = params.toString();
  return search ? `${path}?${search}` : path;
}

/** The typed client over a transport: every call goes through the contract's endpoint map. */
export function typedApi(transport: Transport): TypedApi {
  return async <K extends EndpointKey>(key: K, ...args: RequestArgs<K>): Promise<ApiOutcome<K>> => {
    let contract: Awaited<ReturnType<typeof loadContract>>;
    try {
      contract = await loadContract();
    } catch (error) {
      // The contract's chunk could not be fetched: as far as the caller can tell, it is offline.
      const code: ErrorCodeOf<K> = 'network_error';
      const body = { error: code, message: String(error) };
      return { ok: false, status: 0, code, error: body, setCookies: [] };
    }
    const { commonErrorCodes, endpoints, errorBodySchema } = contract;
    const definition: Endpoints[K] = endpoints[key];
    // The map seen per key (each entry checked on its own), so a generic key keeps its answer's type.
    const responseSchemas: { [Key in EndpointKey]: { response: z.ZodType<ResponseOf<Key>> } } = endpoints;
    const [request] = args;
    const codes: readonly ErrorCodeOf<K>[] = [...definition.errors, ...commonErrorCodes];
    const failure = (status: number, error: ErrorBody, setCookies: string[]): ApiFailure<K> => ({
      ok: false,
      status,
      code: isOneOf(codes, error.error) ? error.error : 'internal_error',
      error,
      setCookies,
    });
    let answer: Awaited<ReturnType<Transport>>;
    try {
      answer = await transport(withQuery(definition.path, request?.query), {
        method: definition.method,
        ...(request?.body !== undefined ? { body: request.body } : {}),
        signal: request?.signal,
      });
    } catch (error) {
      return failure(0, { error: 'network_error', message: String(error) }, []);
    }
    if (answer.status >= 200 && answer.status < 300) {
      const parsed = responseSchemas[key].response.safeParse(answer.data);
      if (parsed.success) {
        return { ok: true, status: answer.status, data: parsed.data, setCookies: answer.setCookies };
      }
      return failure(500, { error: 'internal_error', message: 'unexpected answer' }, answer.setCookies);
    }
    const body = errorBodySchema.safeParse(answer.data);
    return failure(
      answer.status,
      body.success ? body.data : { error: 'internal_error', message: `HTTP ${answer.status}` },
      answer.setCookies,
    );
  };
}

/** Loaders and actions: the page's in-process API caller (context.api), typed through the map. */
export function serverApi(caller: ApiCaller): TypedApi {
  return typedApi(async (path, init) => {
    const result = await caller(path, {
      method: init.method,
      ...(init.body !== undefined ? { body: init.body } : {}),
    });
    return { status: result.status, data: result.data, setCookies: result.setCookies };
  });
}

/** Whether an answer is an error body with this code (no schema needed for one field). */
function isErrorCode(data: unknown, code: string): boolean {
  return typeof data === 'object' && data !== null && 'error' in data && data.error === code;
}

const idempotentMethods = new Set<Method>(['GET', 'PUT', 'DELETE']);
const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * The browser's transport: JSON over fetch with the session cookie, up to 5 retries with exponential
 * delay for idempotent calls that fail on the way or on the server (never a POST: it could send twice).
 */
export function fetchTransport(
  fetchImpl: typeof fetch = (...args) => fetch(...args),
  sleep: (ms: number) => Promise<void> = defaultSleep,
): Transport {
  return async (path, init) => {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (init.body !== undefined) headers['content-type'] = 'application/json';
    if (path.startsWith('/api/user.php')) headers['x-request-type'] = 'client';
    const retries = idempotentMethods.has(init.method) ? maxRetries : 0;
    for (let attempt = 0; ; attempt++) {
      let response: Response;
      try {
        response = await fetchImpl(path, {
          method: init.method,
          headers,
          credentials: 'same-origin',
          ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
          ...(init.signal ? { signal: init.signal } : {}),
        });
      } catch (error) {
        if (init.signal?.aborted || attempt >= retries) throw error;
        await sleep(retryDelayMs(attempt));
        continue;
      }
      const retryable = response.status >= 500 || response.status === 429 || response.status === 408;
      if (!response.ok && retryable && attempt < retries) {
        await sleep(retryDelayMs(attempt));
        continue;
      }
      const data: unknown =
        response.status === 204
          ? null
          : await response.json().catch(() => {
              // expected: an answer without a JSON body is no body (its status still tells).
              return null;
            });
      if (response.status === 403 && isErrorCode(data, 'authentication_required')) {
        announceAuthenticationRequired();
      }
      return { status: response.status, data, setCookies: [] };
    }
  };
}

/** The browser's typed client (components, effects, event handlers). */
export const api: TypedApi = typedApi(fetchTransport());
