import type { AppDeps } from './app-types.ts';
import { nudgeKinds } from './modules/nudges/nudges.service.ts';

const minute = 60_000;
const hour = 60 * minute;

/**
 * The periodic work of the platform, as recurring jobs of the one job runner (decision 036): each
 * period runs once whatever the number of instances, and a failed run is retried and reported.
 * `deps.jobs.start()` (server/main.ts) runs them; tests drive a tick with `deps.jobs.runDue()`.
 */
export function registerBackgroundJobs(
  deps: AppDeps,
  log: { info(details: object, message: string): void },
): void {
  const { jobs } = deps;
  // Orders still pending after PAYMENT_RECHECK_MINUTES are fetched from the provider again (a missed webhook).
  jobs.every('payments.recheck', minute, async () => {
    await deps.payments.recheckPending(deps.config.PAYMENT_RECHECK_MINUTES);
  });
  // Accounts whose 14 days of reactivation have passed are erased.
  jobs.every('accounts.erase-expired', hour, async () => {
    const count = await deps.accounts.eraseExpiredDeletions();
    if (count > 0) log.info({ count }, 'erased accounts after the 14 days');
  });
  jobs.every('login-throttles.prune', hour, async () => {
    await Promise.all([deps.accounts.pruneLoginThrottles(), deps.staff.pruneLoginThrottles()]);
  });
  // WebAuthn challenges nobody answered (an expired one is never taken, only kept).
  jobs.every('webauthn-challenges.prune', hour, async () => {
    await deps.security.pruneChallenges();
  });
  // The nudges: each kind its own hourly run; at night nothing goes, the first run after 08:00 sends.
  for (const kind of nudgeKinds) {
    jobs.every(`nudges.${kind}`, hour, async () => {
      const told = await deps.nudges.run(kind);
      if (told > 0) log.info({ kind, told }, 'nudges sent');
    });
  }
  jobs.every('winback.offers', hour, async () => {
    const sent = await deps.winback.run();
    if (sent > 0) log.info({ sent }, 'win-back offers sent');
  });
  // Finished jobs are kept a week for the record, then forgotten.
  jobs.every('jobs.prune', hour, async (periodStart) => {
    await jobs.pruneFinished(new Date(periodStart.getTime() - 7 * 24 * hour));
  });
}
