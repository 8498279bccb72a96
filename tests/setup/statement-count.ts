import { AsyncLocalStorage } from 'node:async_hooks';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { observeStatements } from '../../server/db/client.ts';

/** Transaction control is not a query of its own (PGlite's driver does not even log it). */
const transactionControl = /^\s*(begin|commit|rollback|savepoint|release savepoint|rollback to savepoint)\b/i;

const scope = new AsyncLocalStorage<string[]>();

/** Installs the observer once per test file; statements run outside a counted scope are ignored. */
export function installStatementCounter(): void {
  observeStatements((query) => {
    const statements = scope.getStore();
    if (statements && !transactionControl.test(query)) statements.push(query);
  });
}

/** Runs `run` and returns what it returned with the SQL statements it caused (its own async context). */
export async function countStatements<T>(
  run: () => Promise<T>,
): Promise<{ result: T; statements: string[] }> {
  const statements: string[] = [];
  // Awaited inside the scope: query builders and inject() chains are lazy and start on `then`.
  const result = await scope.run(statements, async () => await run());
  return { result, statements };
}

/**
 * One app.inject call with its statement count. The app must be ready (`await app.ready()`): before
 * that, inject waits for the boot queue, and the request runs outside the counted context.
 */
export async function injectCounted(
  app: FastifyInstance,
  options: InjectOptions,
): Promise<{ response: LightMyRequestResponse; statements: string[] }> {
  const { result, statements } = await countStatements(() => app.inject(options));
  return { response: result, statements };
}
