import type { ErrorBody } from '#contract/common.ts';

/** What an action hands back to its form when the API said no. */
export type FormErrors = { status: number; body: ErrorBody };

export function fieldErrorKey(code: string): string {
  return `errors:field.${code}`;
}

/** The API's error for a field, if any. */
export function fieldError(errors: FormErrors | undefined, field: string): string | undefined {
  return errors?.body.fields?.[field];
}

/** Message params the API sent along (e.g. min_age, minutes). */
export function errorParams(errors: FormErrors | undefined): Record<string, unknown> {
  if (!errors) return {};
  const { error: _code, message: _message, fields: _fields, ...rest } = errors.body;
  return rest;
}
