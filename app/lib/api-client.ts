import type { ErrorBody } from '#contract/common.ts';

/** An answer of the API that is not 2xx, with the contract's error body. */
export class ApiError extends Error {
  override name = 'ApiError';
  constructor(
    readonly status: number,
    readonly body: ErrorBody,
  ) {
    super(body.message || body.error);
  }
  get code(): string {
    return this.body.error;
  }
}

export const maxRetries = 5;
const idempotentMethods = new Set(['GET', 'HEAD', 'PUT', 'DELETE']);

export type ApiFetchOptions = {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  body?: unknown;
  signal?: AbortSignal;
  /** Overridable for tests. */
  fetchImpl?: typeof fetch;
  sleep?: (ms: number) => Promise<void>;
};

type AuthListener = () => void;
const authListeners = new Set<AuthListener>();

/** Called when any call answers 403 authentication_required: the member is logged out. */
export function onAuthenticationRequired(listener: AuthListener): () => void {
  authListeners.add(listener);
  return () => authListeners.delete(listener);
}

/** Tells the listeners the member is logged out (also used by the typed client, app/lib/api.ts). */
export function announceAuthenticationRequired(): void {
  for (const listener of authListeners) listener();
}

/** Exponential delay before retry n (0-based): 250 ms, 500 ms, 1 s, 2 s, 4 s. */
export function retryDelayMs(attempt: number): number {
  return 250 * 2 ** attempt;
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function isRetryable(status: number): boolean {
  return status >= 500 || status === 429 || status === 408;
}

/**
 * The browser's client of the JSON API: JSON in and out, the contract's errors as ApiError,
 * up to 5 retries with exponential delay for idempotent calls that fail on the way or on the server.
 */
export async function apiFetch<T>(path: string, options: ApiFetchOptions = {}): Promise<T> {
  const method = options.method ?? 'GET';
  const fetchImpl = options.fetchImpl ?? fetch;
  const sleep = options.sleep ?? defaultSleep;
  const headers: Record<string, string> = { accept: 'application/json' };
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  if (path.startsWith('/api/user.php')) headers['x-request-type'] = 'client';
  const retries = idempotentMethods.has(method) ? maxRetries : 0;

  for (let attempt = 0; ; attempt++) {
    let response: Response;
    try {
      response = await fetchImpl(path, {
        method,
        headers,
        credentials: 'same-origin',
        ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
        ...(options.signal ? { signal: options.signal } : {}),
      });
    } catch (error) {
      if (options.signal?.aborted || attempt >= retries) throw error;
      await sleep(retryDelayMs(attempt));
      continue;
    }
    if (response.ok) {
      return (response.status === 204 ? null : await response.json()) as T;
    }
    if (isRetryable(response.status) && attempt < retries) {
      await sleep(retryDelayMs(attempt));
      continue;
    }
    let body: ErrorBody;
    try {
      body = (await response.json()) as ErrorBody;
    } catch {
      // expected: an error answer without a JSON body (a proxy's page) stands as internal_error.
      body = { error: 'internal_error', message: response.statusText };
    }
    if (response.status === 403 && body.error === 'authentication_required') announceAuthenticationRequired();
    throw new ApiError(response.status, body);
  }
}
