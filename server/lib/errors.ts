export type ErrorDetails = Record<string, string | number | boolean | Record<string, string>>;

/**
 * A rule of the domain was not met. The error handler turns it into the contract's body
 * `{error: code, message, ...details}`, with the message translated from `errors:<code>`.
 */
export class AppError extends Error {
  override name = 'AppError';
  constructor(
    readonly status: number,
    readonly code: string,
    readonly details: ErrorDetails = {},
    /** The catalog key of the message when one code covers several situations (errors:<messageKey>). */
    readonly messageKey?: string,
  ) {
    super(code);
  }
}

export class NotFoundError extends AppError {
  override name = 'NotFoundError';
  constructor(code = 'not_found') {
    super(404, code);
  }
}

export class AuthenticationRequiredError extends AppError {
  override name = 'AuthenticationRequiredError';
  constructor() {
    super(403, 'authentication_required');
  }
}

export class ValidationFailedError extends AppError {
  override name = 'ValidationFailedError';
  constructor(fields: Record<string, string>, params: Record<string, string | number> = {}) {
    super(422, 'validation_failed', { fields, ...params });
  }
}

export class RateLimitedError extends AppError {
  override name = 'RateLimitedError';
  constructor(readonly retryAfterSeconds: number) {
    super(429, 'rate_limited');
  }
}

export class CsrfError extends AppError {
  override name = 'CsrfError';
  constructor() {
    super(403, 'csrf_failed');
  }
}
