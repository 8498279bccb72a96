import type { StrikeSettings } from '#server/db/schema/sites.ts';
import type { StrikeConsequence } from '#server/db/schema/strikes.ts';

/** The defaults a site uses for what it does not set (decision 054). */
export const defaultStrikeRules = { suspendAt: 3, suspensionDays: 7 } as const;

export type StrikeRules = { suspendAt: number; suspensionDays: number };

export function strikeRulesOf(settings: StrikeSettings | null | undefined): StrikeRules {
  return {
    suspendAt: settings?.suspendAt ?? defaultStrikeRules.suspendAt,
    suspensionDays: settings?.suspensionDays ?? defaultStrikeRules.suspensionDays,
  };
}

/**
 * What the `number`-th standing strike leads to: the `suspendAt`-th suspends posting, any later one
 * bans, the ones before are a warning on the record.
 */
export function consequenceOf(number: number, rules: StrikeRules): StrikeConsequence {
  if (number > rules.suspendAt) return 'ban';
  if (number === rules.suspendAt) return 'suspension';
  return 'strike';
}
