import type { z } from 'zod';
import type { ErrorBody, errorBodySchema } from '#contract/common.ts';
import type {
  commonErrorCodes,
  EndpointDefinition,
  EndpointKey,
  Endpoints,
  Method,
} from '#contract/endpoints.ts';
import { announceAuthenticationRequired, maxRetries, retryDelayMs } from './api-client.ts';
import type { ApiCaller } from './load-context.ts';
import { loadSchemasInSteps } from './schemas-in-steps.ts';

export type { EndpointKey } from '#contract/endpoints.ts';

/** A map of declared calls keyed "METHOD /path": the members' (Endpoints) or the back office's. */
export type EndpointMap = { readonly [key: string]: EndpointDefinition };
type KeyOf<M extends EndpointMap> = keyof M & string;

/** The 2xx body of a call in a map, as its contract schema says. */
export type ResponseIn<M extends EndpointMap, K extends KeyOf<M>> = z.output<M[K]['response']>;
export type QueryIn<M extends EndpointMap, K extends KeyOf<M>> = M[K] extends {
  query: infer Q extends z.ZodType;
}
  ? z.input<Q>
  : undefined;
export type BodyIn<M extends EndpointMap, K extends KeyOf<M>> = M[K] extends {
  body: infer B extends z.ZodType;
}
  ? z.input<B>
  : undefined;
/** The error codes a call can answer with: its own and the common ones. */
export type ErrorCodeIn<M extends EndpointMap, K extends KeyOf<M>> =
  | M[K]['errors'][number]
  | (typeof commonErrorCodes)[number];

export type SuccessIn<M extends EndpointMap, K extends KeyOf<M>> = {
  ok: true;
  status: number;
  data: ResponseIn<M, K>;
  /** Set-Cookie headers of the answer (in-process calls only), for an action to hand on. */
  setCookies: string[];
};
export type FailureIn<M extends EndpointMap, K extends KeyOf<M>> = {
  ok: false;
  /** 0 when the request never reached the server (offline). */
  status: number;
  /** The error code, narrowed to the codes the contract lists for this call (else internal_error). */
  code: ErrorCodeIn<M, K>;
  error: ErrorBody;
  setCookies: string[];
};
/** Success and failure told apart by `ok`: a caller cannot read `data` before checking it. */
export type OutcomeIn<M extends EndpointMap, K extends KeyOf<M>> = SuccessIn<M, K> | FailureIn<M, K>;

/** The same for the members' calls (contract/endpoints.ts). */
export type ResponseOf<K extends EndpointKey> = ResponseIn<Endpoints, K>;
export type QueryOf<K extends EndpointKey> = QueryIn<Endpoints, K>;
export type BodyOf<K extends EndpointKey> = BodyIn<Endpoints, K>;
export type ErrorCodeOf<K extends EndpointKey> = ErrorCodeIn<Endpoints, K>;
export type ApiSuccess<K extends EndpointKey> = SuccessIn<Endpoints, K>;
export type ApiFailure<K extends EndpointKey = EndpointKey> = FailureIn<Endpoints, K>;
export type ApiOutcome<K extends EndpointKey> = OutcomeIn<Endpoints, K>;

/**
 * A query or body built from a submitted form or a page's address: the contract's fields, each of
 * its type or the text as typed. The back office sends a field that does not parse as it was typed,
 * so the server's validation names that field (in the staff member's language) and the form shows it.
 */
export type FormInput<T> = unknown extends T
  ? T
  : T extends string | number | boolean | null | undefined
    ? T | string | undefined
    : T extends readonly (infer Item)[]
      ? readonly FormInput<Item>[] | undefined
      : { [Field in keyof T]?: FormInput<T[Field]> };

/** How a client takes its queries and bodies: as the contract types them, or as a form's input. */
export type InputMode = 'exact' | 'form';
type InputIn<T, Mode extends InputMode> = Mode extends 'form' ? FormInput<T> : T;

/** A query or body whose fields are all optional may be left out. */
type Optional<T> = undefined extends T ? true : Record<never, never> extends T ? true : false;
type RequestIn<
  M extends EndpointMap,
  K extends KeyOf<M>,
  Mode extends InputMode,
  Q = InputIn<QueryIn<M, K>, Mode>,
  B = InputIn<BodyIn<M, K>, Mode>,
> = (Optional<Q> extends true ? { query?: Q } : { query: Q }) &
  (Optional<B> extends true ? { body?: B } : { body: B }) & { signal?: AbortSignal };
type RequestArgs<M extends EndpointMap, K extends KeyOf<M>, Mode extends InputMode> =
  Record<never, never> extends RequestIn<M, K, Mode>
    ? [request?: RequestIn<M, K, Mode>]
    : [request: RequestIn<M, K, Mode>];

/** Carries one HTTP call: in-process on the server (decision 002), fetch in the browser. */
export type Transport = (
  path: string,
  init: { method: Method; body?: unknown; signal?: AbortSignal | undefined },
) => Promise<{ status: number; data: unknown; setCookies: string[] }>;

/** The typed client over one map of calls. */
export type TypedApiOver<M extends EndpointMap, Mode extends InputMode = 'exact'> = <K extends KeyOf<M>>(
  key: K,
  ...args: RequestArgs<M, K, Mode>
) => Promise<OutcomeIn<M, K>>;
export type TypedApi = TypedApiOver<Endpoints>;

/**
 * Each call's answer schema seen per key, so a generic key keeps its answer's type. A concrete map
 * is checked against it entry by entry where the contract is handed to typedApiOver.
 */
type AnswerSchemas<M extends EndpointMap> = {
  [Key in KeyOf<M>]: { response: z.ZodType<ResponseIn<M, Key>> };
};

/** What the client reads at run time: a map's declarations and the error body's schema. */
export type ContractOf<M extends EndpointMap> = {
  endpoints: M & AnswerSchemas<M>;
  commonErrorCodes: typeof commonErrorCodes;
  errorBodySchema: typeof errorBodySchema;
};

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

/**
 * The typed client over a map of calls and a transport: the contract is loaded with the first call
 * (it answers network_error, like a call that never left, when that fails).
 */
export function typedApiOver<M extends EndpointMap, Mode extends InputMode = 'exact'>(
  load: () => Promise<ContractOf<M>>,
  transport: Transport,
): TypedApiOver<M, Mode> {
  // The request is only carried (the query into the address, the body as JSON): its type is the caller's.
  type Carried = [request?: { query?: unknown; body?: unknown; signal?: AbortSignal | undefined }];
  return async <K extends KeyOf<M>>(key: K, ...args: Carried): Promise<OutcomeIn<M, K>> => {
    let contract: ContractOf<M>;
    try {
      contract = await load();
    } catch (error) {
      // The contract's chunk could not be fetched: as far as the caller can tell, it is offline.
      const code: ErrorCodeIn<M, K> = 'network_error';
      const body = { error: code, message: String(error) };
      return { ok: false, status: 0, code, error: body, setCookies: [] };
    }
    const { commonErrorCodes, endpoints, errorBodySchema } = contract;
    const definition: EndpointDefinition = endpoints[key];
    const [request] = args;
    const codes: readonly ErrorCodeIn<M, K>[] = [...definition.errors, ...commonErrorCodes];
    const failure = (status: number, error: ErrorBody, setCookies: string[]): FailureIn<M, K> => ({
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
      const response: z.ZodType<ResponseIn<M, K>> = endpoints[key].response;
      const parsed = response.safeParse(answer.data);
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

/** The members' typed client over a transport: every call goes through contract/endpoints.ts. */
export function typedApi(transport: Transport): TypedApi {
  return typedApiOver<Endpoints>(loadContract, transport);
}

/** A transport over the page's in-process API caller (context.api). */
export function callerTransport(caller: ApiCaller): Transport {
  return async (path, init) => {
    const result = await caller(path, {
      method: init.method,
      ...(init.body !== undefined ? { body: init.body } : {}),
    });
    return { status: result.status, data: result.data, setCookies: result.setCookies };
  };
}

/** Loaders and actions: the page's in-process API caller (context.api), typed through the map. */
export function serverApi(caller: ApiCaller): TypedApi {
  return typedApi(callerTransport(caller));
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
