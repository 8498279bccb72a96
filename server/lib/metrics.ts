import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { PoolGauges } from '#server/db/client.ts';
import { CaughtErrors, type CaughtLog } from './best-effort.ts';
import type { EventBus } from './event-bus.ts';

/**
 * The Prometheus metrics of one app instance (its own registry, so several apps in one process,
 * as in the tests, never mix their numbers). Served at /metrics with METRICS_TOKEN as a Bearer token.
 */
export class Metrics {
  readonly registry = new Registry();
  readonly httpDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP requests by method, route pattern (never the raw URL) and status class (2xx, 4xx …)',
    labelNames: ['method', 'route', 'status'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });
  readonly websocketConnections = new Gauge({
    name: 'websocket_connections',
    help: 'Open WebSocket connections (member: /api/ws, staff: /api/admin/ws)',
    labelNames: ['socket'],
    registers: [this.registry],
  });
  readonly websocketFramesSent = new Counter({
    name: 'websocket_messages_sent_total',
    help: 'Live events sent to WebSocket clients, by event type',
    labelNames: ['socket', 'type'],
    registers: [this.registry],
  });
  readonly eventsPublished = new Counter({
    name: 'event_bus_published_total',
    help: 'Events published on the event bus, by type (message: chat messages sent)',
    labelNames: ['type'],
    registers: [this.registry],
  });
  readonly eventBusLag = new Histogram({
    name: 'event_bus_lag_seconds',
    help: 'Time from publishing an event to its delivery to a subscriber on this instance',
    buckets: [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5],
    registers: [this.registry],
  });
  readonly eventBusSubscribeFailures = new Counter({
    name: 'event_bus_subscribe_failures_total',
    help: 'Failed Redis subscribes (retried)',
    registers: [this.registry],
  });
  readonly jobFailures = new Counter({
    name: 'job_failures_total',
    help: 'Failed background job attempts, by queue (the job runner: mail.send, postbacks.send, …)',
    labelNames: ['queue'],
    registers: [this.registry],
  });
  readonly jobRuns = new Counter({
    name: 'job_runs_total',
    help: 'Job attempts of the job runner by queue and outcome (done, retry, dead, lease_lost)',
    labelNames: ['queue', 'outcome'],
    registers: [this.registry],
  });
  readonly refundFailures = new Counter({
    name: 'payment_refund_failures_total',
    help: 'Refunds that did not happen: refused by the provider, or the provider unavailable (retry)',
    labelNames: ['outcome'],
    registers: [this.registry],
  });
  readonly mailFailures = new Counter({
    name: 'mail_failures_total',
    help: 'Mail deliveries that failed: retry (will be tried again) or final (given up)',
    labelNames: ['outcome'],
    registers: [this.registry],
  });
  /** An alert: a photo the models could not check waits for a moderator (check_failed). */
  readonly photoScreeningFailures = new Counter({
    name: 'photo_screening_failures_total',
    help: 'Photos the screening models could not check (model load or run failed); each waits for a moderator',
    registers: [this.registry],
  });
  readonly photoScreenings = new Counter({
    name: 'photo_screenings_total',
    help: 'Photos screened, by outcome: approved, or held with its reason',
    labelNames: ['outcome'],
    registers: [this.registry],
  });
  readonly pushFailures = new Counter({
    name: 'push_failures_total',
    help: 'Web Push deliveries that failed: gone (subscription removed) or error',
    labelNames: ['reason'],
    registers: [this.registry],
  });
  readonly nudges = new Counter({
    name: 'nudges_total',
    help: 'Nudges by kind (visitors, unread, likes_digest) and outcome: mailed, pushed, capped (the day had one), switched_off, not_reachable',
    labelNames: ['kind', 'outcome'],
    registers: [this.registry],
  });
  readonly winbackOffers = new Counter({
    name: 'winback_offers_total',
    help: 'Win-back offers mailed (a personal discount code each), by site id',
    labelNames: ['site'],
    registers: [this.registry],
  });
  readonly queueDepth = new Gauge({
    name: 'job_queue_depth',
    help: 'Jobs waiting, by queue (mail: pending mails; payments: pending orders)',
    labelNames: ['queue'],
    registers: [this.registry],
    collect: async () => {
      for (const [queue, count] of Object.entries(await this.depths())) this.queueDepth.set({ queue }, count);
    },
  });

  readonly jobs = new Gauge({
    name: 'jobs',
    help: 'Jobs in the job runner by queue and state (queued, running, dead), read at each scrape',
    labelNames: ['queue', 'state'],
    registers: [this.registry],
    collect: async () => {
      const rows = await this.jobCounts().catch((error: unknown) => {
        this.caught.reportCaught('metrics.jobs', error);
        return [];
      });
      // A queue and state that emptied since the last scrape reads 0, not its last count.
      this.jobs.reset();
      for (const row of rows) this.jobs.set({ queue: row.queue, state: row.status }, row.count);
    },
  });
  readonly databasePool = new Gauge({
    name: 'db_pool_connections',
    help: "PostgreSQL connections of this instance's pool: open (total) and idle",
    labelNames: ['state'],
    registers: [this.registry],
    collect: () => {
      if (!this.pool) return;
      this.databasePool.set({ state: 'total' }, this.pool.totalCount);
      this.databasePool.set({ state: 'idle' }, this.pool.idleCount);
    },
  });
  readonly databasePoolWaiting = new Gauge({
    name: 'db_pool_waiting',
    help: 'Queries of this instance waiting for a pooled PostgreSQL connection',
    registers: [this.registry],
    collect: () => {
      if (this.pool) this.databasePoolWaiting.set(this.pool.waitingCount);
    },
  });

  readonly caughtErrors = new Counter({
    name: 'caught_errors_total',
    help: 'Errors caught and gone on from (logged with the same `where`), by where they happened',
    labelNames: ['where'],
    registers: [this.registry],
  });
  /** Logs and counts the errors the app goes on from (server/lib/best-effort.ts). */
  readonly caught: CaughtErrors;

  private depthSources: Record<string, () => Promise<number>> = {};
  private pool: PoolGauges | undefined;
  private jobCounts: () => Promise<{ queue: string; status: string; count: number }[]> = async () => [];

  /** `log`: the app's logger, where caught errors are written. */
  constructor(log: CaughtLog) {
    this.caught = new CaughtErrors(log, this.caughtErrors);
  }

  /**
   * prom-client's process and Node metrics (CPU, memory, heap, GC, handles, event-loop lag) in this
   * registry: only where /metrics is served, as the event-loop monitor runs for as long as the
   * process does.
   */
  collectDefaults(): void {
    collectDefaultMetrics({ register: this.registry, eventLoopMonitoringPrecision: 20 });
  }

  /** The PostgreSQL pool whose size and waiting checkouts are gauged (none on the embedded database). */
  databasePoolOf(pool: PoolGauges | undefined): void {
    this.pool = pool;
  }

  /** The job runner's counts per queue and state, read when Prometheus scrapes. */
  jobsFrom(counts: () => Promise<{ queue: string; status: string; count: number }[]>): void {
    this.jobCounts = counts;
  }

  /** A queue's depth, read when Prometheus scrapes. */
  queue(name: string, depth: () => Promise<number>): void {
    this.depthSources[name] = depth;
  }

  private async depths(): Promise<Record<string, number>> {
    const entries = await Promise.all(
      Object.entries(this.depthSources).map(async ([name, read]) => {
        // A depth that cannot be read (the database is away) is -1 in this scrape, and reported.
        const depth = await read().catch((error: unknown) => {
          this.caught.reportCaught(`queue-depth.${name}`, error);
          return -1;
        });
        return [name, depth] as const;
      }),
    );
    return Object.fromEntries(entries);
  }
}

/** An event's type for labels: its `type` field, else "other". */
const typeOf = (payload: unknown) =>
  typeof payload === 'object' && payload !== null && typeof (payload as { type?: unknown }).type === 'string'
    ? (payload as { type: string }).type
    : 'other';

type Envelope = { __publishedAt: number; payload: unknown };
const isEnvelope = (value: unknown): value is Envelope =>
  typeof value === 'object' && value !== null && '__publishedAt' in value && 'payload' in value;

/**
 * The event bus with its numbers: events published by type, and the lag from publish to delivery
 * (the publish time travels in an envelope that subscribers never see).
 */
export function measuredBus(bus: EventBus, metrics: Metrics, now: () => number = Date.now): EventBus {
  return {
    publish(channel, payload) {
      metrics.eventsPublished.inc({ type: typeOf(payload) });
      return bus.publish(channel, { __publishedAt: now(), payload } satisfies Envelope);
    },
    subscribe(channel, handler) {
      return bus.subscribe(channel, (message) => {
        if (!isEnvelope(message)) return handler(message);
        metrics.eventBusLag.observe(Math.max(0, now() - message.__publishedAt) / 1000);
        handler(message.payload);
      });
    },
    close: () => bus.close(),
  };
}

function tokenMatches(header: string | undefined, token: string): boolean {
  const given = Buffer.from(header?.startsWith('Bearer ') ? header.slice(7) : '');
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** The methods the app answers; anything else a client sends is one label value, not one each. */
const knownMethods = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/**
 * The labels of one request: the route's pattern (`/api/members/:id`, never the raw URL, so a
 * scanner's thousand paths are one `unmatched`), a known method, and the status class. Bounded:
 * routes × methods × 5 classes.
 */
export function httpLabels(
  method: string,
  routePattern: string | undefined,
  statusCode: number,
): { method: string; route: string; status: string } {
  return {
    method: knownMethods.has(method) ? method : 'other',
    route: routePattern ?? 'unmatched',
    status: `${Math.min(5, Math.max(1, Math.floor(statusCode / 100)))}xx`,
  };
}

/** HTTP timings of every request, and GET /metrics behind METRICS_TOKEN (absent: 404, the page is off). */
export function registerMetrics(app: FastifyInstance, metrics: Metrics, token: string | undefined): void {
  app.addHook('onResponse', async (request, reply) => {
    metrics.httpDuration.observe(
      httpLabels(request.method, request.routeOptions.url, reply.statusCode),
      reply.elapsedTime / 1000,
    );
  });
  if (token) metrics.collectDefaults();
  app.get(
    '/metrics',
    {
      config: { siteless: true },
      schema: {
        tags: ['system'],
        summary: 'Prometheus metrics (Authorization: Bearer METRICS_TOKEN; 404 without METRICS_TOKEN)',
        hide: true,
      },
    },
    async (request, reply) => {
      if (!token) return reply.callNotFound();
      if (!tokenMatches(request.headers.authorization, token)) {
        return reply.status(401).header('www-authenticate', 'Bearer').type('text/plain').send('unauthorized');
      }
      return reply.type(metrics.registry.contentType).send(await metrics.registry.metrics());
    },
  );
}
