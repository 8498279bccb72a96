import { AppError } from '#server/lib/errors.ts';

/** "You're blocked by {name}". */
export class BlockedError extends AppError {
  override name = 'BlockedError';
  constructor(blockerName: string) {
    super(403, 'blocked', { name: blockerName });
  }
}

export class PremiumRequiredError extends AppError {
  override name = 'PremiumRequiredError';
  constructor() {
    super(403, 'premium_required');
  }
}
