import type { FastifyBaseLogger } from 'fastify';
import { loggableError } from './lib/loggable-error.ts';
import type { Metrics } from './lib/metrics.ts';
import type { PaymentsService } from './modules/payments/payments.service.ts';

/** What the payments service is told to report: re-checks and refunds that failed, logged and counted. */
export function reportPaymentFailures(
  payments: PaymentsService,
  metrics: Metrics,
  log: FastifyBaseLogger,
): void {
  payments.onRecheckFailure = (providerPaymentId, error) => {
    metrics.jobFailures.inc({ queue: 'payments' });
    log.warn({ providerPaymentId, err: loggableError(error) }, 'pending order re-check failed, will retry');
  };
  payments.onRefundFailure = (orderId, outcome, error) => {
    metrics.refundFailures.inc({ outcome });
    log.warn(
      { orderId, outcome, ...(error ? { err: loggableError(error) } : {}) },
      outcome === 'refused'
        ? 'refund refused by the payment provider'
        : 'refund failed: the payment provider could not be reached; the order stays completed for a retry',
    );
  };
}
