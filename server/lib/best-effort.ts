import { loggableError } from './loggable-error.ts';

/**
 * Errors that a catch goes on from are never silent: each one is logged with the place it happened
 * and counted in /metrics as `caught_errors_total{where}`. One reporter per app instance
 * (`deps.caught`, made by its Metrics with the app's logger), so two apps in one process never mix
 * their lines or numbers.
 *
 * A catch either handles an expected case (and says so in a `// expected:` comment inside it),
 * rethrows, or reports here; server/lib/no-silent-catch.test.ts holds every product file to that.
 */

/** The app's pino logger (app.log), or anything with its warn and error. */
export type CaughtLog = {
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
};

/** `warn`: the work is optional and the app goes on as designed; `error`: something is lost or wrong. */
export type CaughtLevel = 'warn' | 'error';

/** What a module that is handed a reporter calls: `where` names the work (a label: a fixed string). */
export type ReportCaught = (where: string, error: unknown, level?: CaughtLevel) => void;

/** The counter's part this needs (prom-client's Counter with the `where` label). */
type WhereCounter = { inc(labels: { where: string }): void };

export class CaughtErrors {
  constructor(
    private readonly log: CaughtLog,
    private readonly counter: WhereCounter,
  ) {}

  /**
   * For a catch that goes on: logs `{ err, where }` (the error as loggableError keeps it: no query
   * text or parameters) and counts it. Bound, so it can be handed on as it is.
   */
  readonly reportCaught: ReportCaught = (where, error, level = 'warn') => {
    this.counter.inc({ where });
    this.log[level]({ err: loggableError(error), where }, `${where} failed`);
  };

  /**
   * For a check whose failure is its answer (readiness: `database: down`): logged and counted like
   * reportCaught, without the stack. A probe every few seconds while a dependency is away would
   * otherwise write the same stack trace each time; the error's type and code say what happened.
   */
  readonly reportDown = (where: string, error: unknown): void => {
    this.counter.inc({ where });
    this.log.warn({ err: { ...loggableError(error), stack: undefined }, where }, `${where} failed`);
  };

  /**
   * Fire-and-forget work: runs `work`, and a throw or rejection is reported (logged and counted)
   * instead of reaching the caller. The promise never rejects and answers undefined after a
   * failure: `void caught.bestEffort(…)` to go on at once, or await it to go on after the work.
   */
  readonly bestEffort = async <T>(
    where: string,
    work: () => T | PromiseLike<T>,
    level: CaughtLevel = 'warn',
  ): Promise<T | undefined> => {
    try {
      return await work();
    } catch (error) {
      this.reportCaught(where, error, level);
      return undefined;
    }
  };
}
