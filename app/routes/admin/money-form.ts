import { data } from 'react-router';
import type { ErrorBody } from '#contract/common.ts';

/** Form helpers of the money pages (bundles, codes, orders). */

/**
 * An amount typed as money (`14.99`, `14,99`, `15`) in integer cents; the text itself when it is
 * none, so the API names the field; undefined when empty.
 */
export function cents(value: string | undefined): number | string | undefined {
  const trimmed = value?.trim();
  if (!trimmed) return undefined;
  const match = /^(\d{1,9})(?:[.,](\d{1,2}))?$/.exec(trimmed);
  if (!match) return trimmed;
  return Number(match[1]) * 100 + Number((match[2] ?? '0').padEnd(2, '0'));
}

/** Integer cents as the form shows them again (`1499` → `14.99`). */
export function centsText(value: number | null | undefined): string {
  if (value === null || value === undefined) return '';
  return (value / 100).toFixed(2);
}

/** A `datetime-local` value (taken as UTC) as the API's ISO time; the text itself when it is none. */
export function isoFromLocal(value: string | undefined): string | null | undefined {
  const trimmed = value?.trim();
  if (trimmed === undefined) return undefined;
  if (trimmed === '') return null;
  return /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/.test(trimmed) ? `${trimmed.slice(0, 16)}:00Z` : trimmed;
}

/** An ISO time as a `datetime-local` value in UTC. */
export function localFromIso(value: string | null | undefined): string {
  return value ? value.slice(0, 16) : '';
}

/** An action's answer when the API refused one of several forms on a page: the form named by `intent` shows it. */
export function intentError(result: { status: number; error: ErrorBody }, intent: string) {
  return data({ errors: { status: result.status, body: result.error }, intent }, { status: result.status });
}

/** Times in the money pages are UTC (as the date filters and expiry fields are): the same on server and browser. */
export const utcTime: Intl.DateTimeFormatOptions = {
  dateStyle: 'medium',
  timeStyle: 'short',
  timeZone: 'UTC',
};
