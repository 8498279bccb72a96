import { data, redirect } from 'react-router';
import { type ErrorBody, errorBodySchema } from '#contract/common.ts';
import type { ApiResult } from './load-context.ts';

/** A typed client's refusal (app/lib/api.ts, the members' or the back office's): its status and error body. */
type TypedFailure = { ok: false; status: number; error: ErrorBody };

/** Hands the API's Set-Cookie headers (the session) on to the browser. */
export function cookieHeaders(result: { setCookies: string[] }): Headers {
  const headers = new Headers();
  for (const cookie of result.setCookies) headers.append('Set-Cookie', cookie);
  return headers;
}

function errorOf(result: ApiResult | TypedFailure): ErrorBody {
  if ('error' in result) return result.error;
  const body = errorBodySchema.safeParse(result.data);
  return body.success ? body.data : { error: 'internal_error', message: `HTTP ${result.status}` };
}

/**
 * An action's answer when the API refused (a typed failure of app/lib/api.ts): the form shows the error.
 * `values` hands back what was typed, so a form posted before the page hydrated (a full page load)
 * comes back filled in rather than empty.
 */
export function formError<Values extends Record<string, string>>(
  result: ApiResult | TypedFailure,
  values?: Values,
) {
  return data(
    { errors: { status: result.status, body: errorOf(result) }, ...(values ? { values } : {}) },
    { status: result.status },
  );
}

export function redirectWithCookies(to: string, result: { setCookies: string[] }) {
  return redirect(to, { headers: cookieHeaders(result) });
}

export function formText(form: FormData, name: string): string {
  const value = form.get(name);
  return typeof value === 'string' ? value : '';
}
