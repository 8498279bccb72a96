import { AppError } from '#server/lib/errors.ts';

/** A WebAuthn answer that does not verify (wrong origin, a used or expired challenge, a bad signature). */
export class PasskeyFailedError extends AppError {
  override name = 'PasskeyFailedError';
  constructor(status: 400 | 401 = 400) {
    super(status, 'passkey_failed');
  }
}

export class PasskeyExistsError extends AppError {
  override name = 'PasskeyExistsError';
  constructor() {
    super(409, 'passkey_exists');
  }
}

/**
 * A sign-up or e-mail change to a banned address. Neutral on purpose: it says no more than that this
 * address cannot be used, never why.
 */
export class AddressRefusedError extends AppError {
  override name = 'AddressRefusedError';
  constructor() {
    super(422, 'address_refused');
  }
}
