import { AppError } from '#server/lib/errors.ts';

/** A member or a visitor called a back-office API. */
export class StaffRequiredError extends AppError {
  override name = 'StaffRequiredError';
  constructor() {
    super(403, 'staff_required');
  }
}

/** The staff member's role lacks the right for this call. */
export class ForbiddenError extends AppError {
  override name = 'ForbiddenError';
  constructor() {
    super(403, 'forbidden');
  }
}

/** The password was right, but an enrolled account needs a valid TOTP code as well. */
export class OtpRequiredError extends AppError {
  override name = 'OtpRequiredError';
  constructor() {
    super(401, 'otp_required');
  }
}

/**
 * The password and the code were right, but the code's time step has signed in already (a double
 * submit, a code used twice): refused, yet no failed try, so nobody locks themselves out with it.
 */
export class OtpUsedError extends AppError {
  override name = 'OtpUsedError';
  constructor() {
    super(401, 'otp_used');
  }
}

/** Every staff member enrols in two-factor sign-in before anything else works. */
export class OtpEnrolmentRequiredError extends AppError {
  override name = 'OtpEnrolmentRequiredError';
  constructor() {
    super(403, 'otp_enrolment_required');
  }
}

/** An account an admin created sets its own password before anything else works. */
export class PasswordChangeRequiredError extends AppError {
  override name = 'PasswordChangeRequiredError';
  constructor() {
    super(403, 'password_change_required');
  }
}
