import type { LightMyRequestResponse } from 'fastify';

/** What is wrong with an answer, or undefined when it keeps the contract. */
export function contractViolation(response: LightMyRequestResponse): string | undefined {
  const status = response.statusCode;
  if (status >= 500) return `status ${status}`;
  if (status < 400) return undefined;
  let body: unknown;
  try {
    body = response.json();
  } catch {
    return `a ${status} that is not JSON`;
  }
  if (typeof body !== 'object' || body === null) return `a ${status} that is not an object`;
  const { error, message, fields } = body as Record<string, unknown>;
  if (typeof error !== 'string' || typeof message !== 'string' || message === '') {
    return `a ${status} without error and message`;
  }
  if (error === 'validation_failed') {
    if (status !== 422) return 'validation_failed with a status other than 422';
    if (typeof fields !== 'object' || fields === null) return '422 without fields';
    if (!Object.values(fields).every((code) => typeof code === 'string')) return '422 with odd fields';
  }
  return undefined;
}
