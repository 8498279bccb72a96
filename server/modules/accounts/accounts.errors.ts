import { AppError } from '#server/lib/errors.ts';

export class EmailExistsError extends AppError {
  override name = 'EmailExistsError';
  constructor() {
    super(409, 'email_exists');
  }
}

export class PendingDeletionError extends AppError {
  override name = 'PendingDeletionError';
  constructor(status = 409) {
    super(status, 'pending_deletion');
  }
}

/** A moderator banned the member: sign-in is refused (only after the right password). */
export class BannedError extends AppError {
  override name = 'BannedError';
  constructor() {
    super(403, 'banned');
  }
}

export class SignupsClosedError extends AppError {
  override name = 'SignupsClosedError';
  constructor() {
    super(403, 'signups_closed');
  }
}

export class LoginFailedError extends AppError {
  override name = 'LoginFailedError';
  constructor() {
    super(401, 'login_failed');
  }
}

export class AccountLockedError extends AppError {
  override name = 'AccountLockedError';
  constructor(minutes: number) {
    super(429, 'account_locked', { minutes });
  }
}

export class ResetLimitError extends AppError {
  override name = 'ResetLimitError';
  constructor() {
    super(429, 'reset_limit');
  }
}

export class EmailNotFoundError extends AppError {
  override name = 'EmailNotFoundError';
  constructor() {
    super(404, 'email_not_found');
  }
}

export class LinkInvalidError extends AppError {
  override name = 'LinkInvalidError';
  constructor() {
    super(410, 'link_invalid');
  }
}
