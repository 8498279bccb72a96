import { data, redirect } from 'react-router';
import type { ErrorBody } from '#contract/common.ts';
import type { ApiResult } from './load-context.ts';

/** Hands the API's Set-Cookie headers (the session) on to the browser. */
export function cookieHeaders(result: ApiResult): Headers {
  const headers = new Headers();
  for (const cookie of result.setCookies) headers.append('Set-Cookie', cookie);
  return headers;
}

/** An action's answer when the API refused: the form shows the error. */
export function formError(result: ApiResult) {
  return data(
    { errors: { status: result.status, body: result.data as ErrorBody } },
    { status: result.status },
  );
}

export function redirectWithCookies(to: string, result: ApiResult) {
  return redirect(to, { headers: cookieHeaders(result) });
}

export function formText(form: FormData, name: string): string {
  const value = form.get(name);
  return typeof value === 'string' ? value : '';
}
