import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { BuildOptions } from './app-types.ts';
import type { Config } from './config.ts';
import {
  connectPostgres,
  type Database,
  type DatabaseHandle,
  embeddedHandle,
  openPglite,
} from './db/client.ts';
import { type EmbeddedStart, embeddedDatabaseOf } from './db/embedded.ts';
import { connectReadRouter } from './db/read-router.ts';
import { systemClock } from './lib/clock.ts';
import { createLocalBus, createRedisBus } from './lib/event-bus.ts';
import { createTranslator } from './lib/i18n.ts';
import { createMediaSigner } from './lib/media-signing.ts';
import { type Metrics, measuredBus } from './lib/metrics.ts';
import { redisPrefixOf } from './lib/redis-prefix.ts';
import { loadSecrets } from './lib/secrets.ts';
import { createMediaStorage } from './lib/storage.ts';
import { refreshRestoredDemo, seedDemo } from './modules/demo/demo.seed.ts';
import { createOutboxTransport, createSmtpTransport } from './modules/mail/mail-transport.ts';
import { createTestProvider, type PaymentProvider } from './modules/payments/providers.ts';

function dkimKey(config: Config) {
  if (!config.DKIM_PRIVATE_KEY) return undefined;
  return { selector: config.DKIM_SELECTOR ?? 'mail', privateKey: config.DKIM_PRIVATE_KEY };
}

/** How long a start waits for Redis before it goes on without it (it reconnects by itself). */
const redisStartWaitMs = 5_000;

/**
 * Waits for the first connection to Redis: the presence store refuses commands while the client is
 * not ready (a lost connection must not hold a send for seconds), so the app serves once it is.
 * Redis down at the start is reported and the app starts anyway, as it runs on while Redis is down.
 */
async function firstConnection(
  redis: import('ioredis').Redis,
  reportDown: (name: string, error: unknown) => void,
): Promise<void> {
  if (redis.status === 'ready') return;
  let timer: NodeJS.Timeout | undefined;
  let onReady: (() => void) | undefined;
  await new Promise<void>((resolve) => {
    onReady = resolve;
    redis.once('ready', onReady);
    timer = setTimeout(() => {
      reportDown(
        'redis.connect',
        new Error(`Redis not ready after ${redisStartWaitMs} ms (${redis.status})`),
      );
      resolve();
    }, redisStartWaitMs);
  });
  clearTimeout(timer);
  if (onReady) redis.off('ready', onReady);
}

async function paymentProvider(config: Config, db: Database): Promise<PaymentProvider> {
  if (config.PAYMENT_PROVIDER === 'mollie') {
    if (!config.MOLLIE_API_KEY) throw new Error('PAYMENT_PROVIDER=mollie needs MOLLIE_API_KEY');
    // Mollie's client library loads only where it is the provider (~90 ms of every other start).
    const { createMollieProvider } = await import('./modules/payments/mollie-provider.ts');
    return createMollieProvider(config.MOLLIE_API_KEY);
  }
  return createTestProvider(db);
}

async function openConfiguredDatabase(config: Config, embedded?: EmbeddedStart): Promise<DatabaseHandle> {
  if (embedded) {
    await embedded.thread.ready;
    return embeddedHandle(embedded.thread, embedded.prepared);
  }
  if (config.DATABASE_URL) {
    return connectPostgres(config.DATABASE_URL, config.DATABASE_POOL_SIZE, {
      pooler: config.DATABASE_POOLER,
      migrationUrl: config.DATABASE_DIRECT_URL,
    });
  }
  const { dataDir, snapshot } = embeddedDatabaseOf(config);
  return openPglite(dataDir, snapshot);
}

/**
 * What the services stand on: the database (migrated, the demo seeded when asked), the event bus
 * and Redis, the clock, the translator, the mail transport, the secrets and the media storage.
 */
export async function openInfrastructure(
  app: FastifyInstance,
  config: Config,
  options: BuildOptions,
  metrics: Metrics,
) {
  const caught = metrics.caught;
  const database = options.database ?? (await openConfiguredDatabase(config, options.embedded));
  await database.migrate();
  // Two deployments on one Redis never share keys or channels (pub/sub ignores the db number).
  const redisPrefix = options.redisPrefix ?? redisPrefixOf(config);
  const bus = measuredBus(
    config.REDIS_URL
      ? await createRedisBus(
          config.REDIS_URL,
          redisPrefix,
          app.log,
          () => metrics.eventBusSubscribeFailures.inc(),
          caught.reportCaught,
        )
      : createLocalBus(),
    metrics,
  );
  // Reads that may go to a replica ask this router for their handle (decision 056).
  const reads = await connectReadRouter(database, config.DATABASE_REPLICA_URL, {
    poolSize: config.DATABASE_POOL_SIZE,
    pooler: config.DATABASE_POOLER,
    maxLagMs: config.DATABASE_REPLICA_MAX_LAG_MS,
    stickyMs: config.DATABASE_REPLICA_STICKY_MS,
    bus,
    onCheckFailed: (replica, error) => caught.reportDown(`database-replica.check ${replica}`, error),
  });
  await reads.start(config.DATABASE_REPLICA_CHECK_MS);
  // ioredis loads only when Redis is configured (~60 ms of an embedded start otherwise).
  const redis = config.REDIS_URL
    ? new (await import('ioredis')).Redis(config.REDIS_URL, {
        keyPrefix: redisPrefix,
        maxRetriesPerRequest: 3,
      })
    : null;
  if (redis) await firstConnection(redis, caught.reportDown);

  const seededAt = new Date();
  if (config.SEED_DEMO) {
    if (database.snapshot?.kind === 'restored') {
      await refreshRestoredDemo(database.db, database.snapshot.seededAt, seededAt);
    }
    await seedDemo(database.db, { profiles: config.DEMO_PROFILES, today: seededAt });
  }
  // Kept before anything of this installation (its secrets, its admin) is written.
  if (database.snapshot?.kind === 'missing') {
    await database.snapshot
      .save(seededAt)
      .catch((error: unknown) => caught.reportCaught('database-snapshot.save', error));
  }

  const clock = options.clock ?? systemClock;
  const mailTransport =
    options.mailTransport ??
    (config.SMTP_URL
      ? createSmtpTransport(config.SMTP_URL, dkimKey(config))
      : createOutboxTransport(path.join(config.DATA_DIR, 'outbox'), dkimKey(config)));
  const secrets = await loadSecrets(database.db, config.SESSION_SECRET, config.BAN_HASH_SECRET);
  return {
    database,
    reads,
    bus,
    redis,
    clock,
    translator: options.translator ?? createTranslator(),
    mailTransport,
    secrets,
    // Photo originals are private objects behind signed links (docs/decisions/008-private-media.md).
    storage: createMediaStorage(config, createMediaSigner(secrets.mediaSecret, clock), clock),
    provider: options.paymentProvider ?? (await paymentProvider(config, database.db)),
  };
}

export type Infrastructure = Awaited<ReturnType<typeof openInfrastructure>>;
