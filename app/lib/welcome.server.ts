import { timeBonus } from '#contract/payments.ts';
import type { User } from '#contract/users.ts';

/**
 * Whether the welcome time bonus can still run for this member (spec §4: never paid, first 4
 * hours): the root loader asks for the code only then. Server-only, so the contract's values (and
 * zod with them) stay out of the public pages' scripts.
 */
export function welcomeCanRun(user: Pick<User, 'paid_user' | 'signup_date'>, now: number): boolean {
  if (user.paid_user) return false;
  return (now - new Date(user.signup_date).getTime()) / 1000 < timeBonus.windowSeconds;
}
