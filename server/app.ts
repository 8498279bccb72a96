import { mkdirSync } from 'node:fs';
import path from 'node:path';
import fastifyCompress from '@fastify/compress';
import fastifyCookie from '@fastify/cookie';
import fastifyMultipart from '@fastify/multipart';
import fastifyRateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import fastifySwaggerUi from '@fastify/swagger-ui';
import fastifyWebsocket from '@fastify/websocket';
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Redis } from 'ioredis';
import type { DestinationStream } from 'pino';
import type { Locale } from '#contract/locales.ts';
import { registerBackgroundJobs } from './background-jobs.ts';
import type { Config } from './config.ts';
import {
  connectPostgres,
  type Database,
  type DatabaseHandle,
  embeddedHandle,
  openPglite,
} from './db/client.ts';
import { type EmbeddedStart, embeddedDatabaseOf } from './db/embedded.ts';
import type { SiteRow } from './db/schema/sites.ts';
import type { CaughtErrors } from './lib/best-effort.ts';
import { type Clock, systemClock } from './lib/clock.ts';
import { compressionOptions } from './lib/compression.ts';
import { loggableError, registerErrorHandler } from './lib/error-handler.ts';
import { NotFoundError, RateLimitedError } from './lib/errors.ts';
import { createLocalBus, createRedisBus, type EventBus } from './lib/event-bus.ts';
import { createTranslator, type Translator } from './lib/i18n.ts';
import { AccessLog, childLoggerFactory, loggerOptions } from './lib/logging.ts';
import { createMediaSigner } from './lib/media-signing.ts';
import { Metrics, measuredBus, registerMetrics } from './lib/metrics.ts';
import { collectRoutes, registerOpenApi } from './lib/openapi.ts';
import { failoverRateLimitStore } from './lib/rate-limit-store.ts';
import { redisPrefixOf } from './lib/redis-prefix.ts';
import { registerRequestContext } from './lib/request-context.ts';
import { registerRequestId, requestIdGenerator } from './lib/request-id.ts';
import { loadSecrets, type Secrets } from './lib/secrets.ts';
import { registerSecurityHeaders } from './lib/security-headers.ts';
import { createSmsSender, type SmsSender } from './lib/sms.ts';
import {
  createMediaStorage,
  localMediaFolders,
  type MediaStorage,
  mediaRoutePrefix,
  publicKeyFolders,
} from './lib/storage.ts';
import { trustProxyOption, trustProxyTrueWarning } from './lib/trust-proxy.ts';
import type { ZodApp } from './lib/zod-app.ts';
import { accountsRoutes } from './modules/accounts/accounts.routes.ts';
import { AccountsService } from './modules/accounts/accounts.service.ts';
import { SessionCache } from './modules/accounts/session-cache.ts';
import { registerSessions } from './modules/accounts/sessions.ts';
import { assetsRoutes } from './modules/assets/assets.routes.ts';
import { moneyAdminRoutes } from './modules/backoffice/money-admin.routes.ts';
import { profilesAdminRoutes } from './modules/backoffice/profiles-admin.routes.ts';
import { sitesAdminRoutes } from './modules/backoffice/sites-admin.routes.ts';
import { ChatListCache } from './modules/chats/chat-list-cache.ts';
import { chatsRoutes } from './modules/chats/chats.routes.ts';
import { ChatsService } from './modules/chats/chats.service.ts';
import { complaintsRoutes } from './modules/content/complaints.routes.ts';
import { contentRoutes } from './modules/content/content.routes.ts';
import { countsRoutes } from './modules/counts/counts.routes.ts';
import { refreshRestoredDemo, seedDemo } from './modules/demo/demo.seed.ts';
import { healthRoutes } from './modules/health/health.routes.ts';
import { JobRunner } from './modules/jobs/job-runner.ts';
import { landersRoutes } from './modules/landers/landers.routes.ts';
import { likesRoutes } from './modules/likes/likes.routes.ts';
import { LikesService } from './modules/likes/likes.service.ts';
import { closeSocketsGoingAway, liveRoutes } from './modules/live/live.routes.ts';
import { devOutboxRoutes } from './modules/mail/dev-outbox.routes.ts';
import { MailQueue } from './modules/mail/mail.service.ts';
import {
  createOutboxTransport,
  createSmtpTransport,
  type MailTransport,
} from './modules/mail/mail-transport.ts';
import { moderationRoutes } from './modules/moderation/moderation.routes.ts';
import { notificationsRoutes } from './modules/notifications/notifications.routes.ts';
import { NotificationsService, type PushSender } from './modules/notifications/notifications.service.ts';
import { localPresenceStore, Presence, redisPresenceStore } from './modules/notifications/presence.ts';
import { pwaRoutes } from './modules/notifications/pwa.routes.ts';
import { operatorLiveRoutes, operatorRoutes } from './modules/operator/operator.routes.ts';
import { OperatorService } from './modules/operator/operator.service.ts';
import { DirectDebitService } from './modules/payments/direct-debit.service.ts';
import { paymentsRoutes } from './modules/payments/payments.routes.ts';
import { PaymentsService } from './modules/payments/payments.service.ts';
import { createTestProvider, type PaymentProvider } from './modules/payments/providers.ts';
import { privateMediaRoutes } from './modules/photos/media.routes.ts';
import { maxUploadBytes, photosRoutes } from './modules/photos/photos.routes.ts';
import { PhotosService } from './modules/photos/photos.service.ts';
import { profilesRoutes } from './modules/profiles/profiles.routes.ts';
import { ProfilesService } from './modules/profiles/profiles.service.ts';
import { registerRegionLabels } from './modules/regions/region-labels.ts';
import { regionsRoutes } from './modules/regions/regions.routes.ts';
import { searchRoutes } from './modules/search/search.routes.ts';
import { SearchService } from './modules/search/search.service.ts';
import { SearchCounts } from './modules/search/search-counts.ts';
import { seoRoutes } from './modules/sites/seo.routes.ts';
import { sitesRoutes } from './modules/sites/sites.routes.ts';
import { SiteDirectory } from './modules/sites/sites.service.ts';
import { ensureStaffAtStart, type StaffStart } from './modules/staff/staff.bootstrap.ts';
import { staffRoutes } from './modules/staff/staff.routes.ts';
import { StaffService } from './modules/staff/staff.service.ts';
import { registerStaffSessions } from './modules/staff/staff.sessions.ts';
import { statsRoutes } from './modules/stats/stats.routes.ts';
import { StatsService } from './modules/stats/stats.service.ts';
import { httpPostbackSender, PostbackQueue, type PostbackSender } from './modules/tracking/postbacks.ts';
import { TrackingService } from './modules/tracking/tracking.service.ts';
import { answerFrameworkError } from './web/malformed-url.ts';
import { registerWeb, type WebMode } from './web/ssr.ts';

export type AppDeps = {
  config: Config;
  metrics: Metrics;
  /** Logs and counts the errors a catch goes on from (server/lib/best-effort.ts); `metrics.caught`. */
  caught: CaughtErrors;
  db: Database;
  databaseKind: DatabaseHandle['kind'];
  bus: EventBus;
  redis: Redis | null;
  sites: SiteDirectory;
  translator: Translator;
  secrets: Secrets;
  storage: MediaStorage;
  clock: Clock;
  /** The one job runner: mail, postbacks, periodic sweeps (decision 036). */
  jobs: JobRunner;
  mail: MailQueue;
  accounts: AccountsService;
  profiles: ProfilesService;
  photos: PhotosService;
  search: SearchService;
  likes: LikesService;
  chats: ChatsService;
  /** Finished conversation lists per member for a few seconds (chats/chat-list-cache.ts). */
  chatLists: ChatListCache;
  payments: PaymentsService;
  notifications: NotificationsService;
  directDebit: DirectDebitService;
  staff: StaffService;
  operator: OperatorService;
  /** Landing clicks (visits) and the postbacks of what they led to. */
  tracking: TrackingService;
  postbacks: PostbackQueue;
  stats: StatsService;
  /** What the start did about staff accounts (main.ts prints a demo admin's password once). */
  staffStart: StaffStart;
};

declare module 'fastify' {
  interface FastifyInstance {
    deps: AppDeps;
  }
  interface FastifyRequest {
    site: SiteRow;
    locale: Locale;
    /** The visitor's country by GeoIP, null when unknown (e.g. a private address). */
    clientCountry: string | null;
  }
}

export type BuildOptions = {
  /** An open database (tests hand one in); otherwise opened from the config. */
  database?: DatabaseHandle;
  /** The embedded database the server's entry started in a thread of its own (server/db/embedded.ts). */
  embedded?: EmbeddedStart;
  /** Serve pages: the production build, Vite in development, or none (API only). */
  web?: WebMode | false;
  /** Key prefix for Redis channels and counters, so test runs never meet. */
  redisPrefix?: string;
  translator?: Translator;
  clock?: Clock;
  /** Where mails go: SMTP_URL, else the outbox folder; tests hand in their own. */
  mailTransport?: MailTransport;
  /** Web Push delivery; tests point it at a push service on loopback. */
  pushSender?: PushSender;
  smsSender?: SmsSender;
  /** The payment provider; tests hand in Mollie's client pointed at a fake endpoint. */
  paymentProvider?: PaymentProvider;
  /** How postbacks to ad networks are sent; tests hand in their own. */
  postbackSender?: PostbackSender;
  /** Where log lines go (tests read them); stdout by default. */
  logStream?: DestinationStream;
};

function dkimKey(config: Config) {
  if (!config.DKIM_PRIVATE_KEY) return undefined;
  return { selector: config.DKIM_SELECTOR ?? 'mail', privateKey: config.DKIM_PRIVATE_KEY };
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
    return connectPostgres(config.DATABASE_URL, config.DATABASE_POOL_SIZE);
  }
  const { dataDir, snapshot } = embeddedDatabaseOf(config);
  return openPglite(dataDir, snapshot);
}

export async function buildApp(config: Config, options: BuildOptions = {}): Promise<FastifyInstance> {
  const logger = loggerOptions(config, options.logStream);
  const app = Fastify({
    // Tokens, cookies and passwords never reach a log line (redaction and a URL serializer).
    logger,
    // Each request's logger without a redaction pass over its bindings (logging.ts).
    ...(logger ? { childLoggerFactory } : {}),
    trustProxy: trustProxyOption(config.TRUST_PROXY),
    bodyLimit: 1024 * 1024,
    // X-Request-Id: a trusted proxy's, else a new one; in every log line and every answer (request-id.ts).
    requestIdHeader: false,
    genReqId: requestIdGenerator(config.TRUST_PROXY),
    // An address that cannot be decoded gets the 404 page (or the API's error body), never raw JSON.
    frameworkErrors: answerFrameworkError,
    // One access line per request, not Fastify's two (logging.ts).
    logController: new AccessLog(),
  });
  if (config.TRUST_PROXY === true) app.log.warn(trustProxyTrueWarning);
  if (config.RATE_LIMITS_OFF) {
    app.log.warn('RATE_LIMITS_OFF is set: no rate limit applies. For load tests only, never in production.');
  }
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  collectRoutes(app);
  registerRequestId(app);

  const metrics = new Metrics(app.log);
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
  // ioredis loads only when Redis is configured (~60 ms of an embedded start otherwise).
  const redis = config.REDIS_URL
    ? new (await import('ioredis')).Redis(config.REDIS_URL, {
        keyPrefix: redisPrefix,
        maxRetriesPerRequest: 3,
      })
    : null;

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
  const translator = options.translator ?? createTranslator();
  const mailTransport =
    options.mailTransport ??
    (config.SMTP_URL
      ? createSmtpTransport(config.SMTP_URL, dkimKey(config))
      : createOutboxTransport(path.join(config.DATA_DIR, 'outbox'), dkimKey(config)));
  const jobs = new JobRunner(database.db, clock, { reportCaught: caught.reportCaught, metrics });
  const mail = new MailQueue(database.db, mailTransport, config.MAIL_FROM, clock, app.log, jobs, metrics);
  const secrets = await loadSecrets(database.db, config.SESSION_SECRET);
  // Photo originals are private objects behind signed links (docs/decisions/008-private-media.md).
  const storage = createMediaStorage(config, createMediaSigner(secrets.mediaSecret, clock), clock);
  // Presence in Redis (or this process), copied to the database in batches (decision 007).
  const presence = new Presence(
    database.db,
    clock,
    redis ? redisPresenceStore(redis) : localPresenceStore(clock),
    (error) => caught.reportCaught('presence.store-or-copy', error),
  );
  presence.start();
  const notifications = new NotificationsService(
    database.db,
    clock,
    mail,
    translator,
    secrets,
    config,
    options.pushSender,
    presence,
  );
  const provider = options.paymentProvider ?? (await paymentProvider(config, database.db));
  const directDebit = new DirectDebitService(
    database.db,
    clock,
    options.smsSender ?? createSmsSender(config),
    translator,
    caught.reportCaught,
    provider,
  );
  notifications.onPushFailure = (failure) => {
    metrics.pushFailures.inc({ reason: failure.reason });
    metrics.jobFailures.inc({ queue: 'push' });
    app.log[failure.reason === 'gone' ? 'info' : 'warn'](failure, 'push delivery failed');
  };
  metrics.queue('mail', () => mail.pending());
  const sites = new SiteDirectory(database.db, bus);
  // Finished conversation lists per member for a few seconds (chats/chat-list-cache.ts).
  const chatLists = new ChatListCache(config.CHAT_LIST_CACHE_MS);
  const profiles = new ProfilesService(database.db, clock, storage, (userId) => chats.listChanged(userId));
  const chats = new ChatsService(
    database.db,
    clock,
    storage,
    bus,
    caught.reportCaught,
    notifications,
    chatLists,
  );
  const staffService = new StaffService(database.db, clock, {
    maxFailures: config.LOGIN_MAX_FAILURES,
    windowMinutes: config.LOGIN_WINDOW_MINUTES,
    lockMinutes: config.LOGIN_LOCK_MINUTES,
  });
  const deps: AppDeps = {
    config,
    metrics,
    jobs,
    caught,
    db: database.db,
    databaseKind: database.kind,
    bus,
    redis,
    sites,
    translator,
    secrets,
    notifications,
    storage,
    clock,
    mail,
    accounts: new AccountsService(database.db, clock, mail, translator, storage, {
      maxFailures: config.LOGIN_MAX_FAILURES,
      windowMinutes: config.LOGIN_WINDOW_MINUTES,
      lockMinutes: config.LOGIN_LOCK_MINUTES,
    }),
    profiles,
    photos: new PhotosService(database.db, clock, storage),
    search: new SearchService(
      database.db,
      clock,
      storage,
      new SearchCounts(config.SEARCH_COUNT_CACHE_MS, clock),
    ),
    likes: new LikesService(database.db, clock, storage, bus, caught.reportCaught, notifications),
    chats,
    payments: new PaymentsService(database.db, clock, bus, provider, directDebit),
    directDebit,
    staff: staffService,
    operator: new OperatorService(database.db, clock, storage, bus, sites, chats, profiles, staffService),
    tracking: new TrackingService(database.db, clock),
    postbacks: new PostbackQueue(
      database.db,
      clock,
      options.postbackSender ?? httpPostbackSender(config.NODE_ENV !== 'production'),
      app.log,
      jobs,
    ),
    stats: new StatsService(database.db, clock),
    staffStart: { adminCreated: false, demoAdmin: null },
    // The one cache the chats service drops and the list route reads.
    chatLists,
  };
  await deps.payments.ensureTimeBonusCode();
  await deps.photos
    .moveLegacyMedia()
    .then((photos) => photos > 0 && app.log.info({ photos }, 'photos moved to private media'))
    .catch((error: unknown) => caught.reportCaught('photos.move-to-private-media', error, 'error'));
  deps.payments.onRecheckFailure = (providerPaymentId, error) => {
    metrics.jobFailures.inc({ queue: 'payments' });
    app.log.warn(
      { providerPaymentId, err: loggableError(error) },
      'pending order re-check failed, will retry',
    );
  };
  deps.payments.onRefundFailure = (orderId, outcome, error) => {
    metrics.refundFailures.inc({ outcome });
    app.log.warn(
      { orderId, outcome, ...(error ? { err: loggableError(error) } : {}) },
      outcome === 'refused'
        ? 'refund refused by the payment provider'
        : 'refund failed: the payment provider could not be reached; the order stays completed for a retry',
    );
  };
  // Sessions resolved in the last seconds, dropped over the event bus when they change (decision 014).
  const sessionCache = new SessionCache(config.SESSION_CACHE_MS);
  deps.accounts.cacheSessions(sessionCache, bus);
  const stopSessionCache = sessionCache.listen(bus);
  const stopChatListCache = deps.chatLists.listen(bus);
  metrics.queue('payments', () => deps.payments.pendingCount());
  metrics.queue('postbacks', () => deps.postbacks.pending());
  registerBackgroundJobs(deps, app.log);
  deps.staffStart = await ensureStaffAtStart(config, deps.staff);
  app.decorate('deps', deps);
  app.addHook('onClose', async () => {
    deps.sites.close();
    await jobs.stop();
    mail.stop();
    await bus.close();
    stopSessionCache();
    stopChatListCache();
    await presence.stop();
    await redis?.quit().catch((error: unknown) => caught.reportCaught('redis.quit', error));
    await database.close();
  });

  await app.register(fastifyCookie, { secret: deps.secrets.sessionSecret });
  await registerSecurityHeaders(app, config);
  await app.register(fastifyWebsocket, {
    // Frames are small JSON: per-message compression would cost memory per socket and CPU per frame.
    options: { maxPayload: 64 * 1024, perMessageDeflate: false },
    preClose: closeSocketsGoingAway,
  });
  await app.register(fastifyMultipart, { limits: { fileSize: maxUploadBytes, files: 1, fields: 5 } });
  await app.register(fastifyCompress, compressionOptions);
  await app.register(fastifyRateLimit, {
    global: false,
    allowList: config.RATE_LIMITS_OFF ? () => true : config.RATE_LIMIT_ALLOWLIST,
    // While Redis is away, limits are counted per instance (logged), never skipped and never a 500.
    ...(redis ? { store: failoverRateLimitStore(redis, app.log, 'rate-limit:') } : {}),
    errorResponseBuilder: (_request, context) => new RateLimitedError(Math.ceil(context.ttl / 1000)),
  });
  registerRequestContext(app);
  registerRegionLabels(app);
  registerSessions(app);
  registerStaffSessions(app);
  registerErrorHandler(app);
  registerMetrics(app, metrics, config.METRICS_TOKEN);

  // The OpenAPI document: security, operationIds, statuses and named components (server/lib/openapi.ts).
  await registerOpenApi(app);
  await app.register(fastifySwaggerUi, { routePrefix: '/api/docs' });

  const mediaDir = localMediaFolders(config).publicRoot;
  mkdirSync(mediaDir, { recursive: true });
  await app.register(fastifyStatic, {
    root: mediaDir,
    prefix: mediaRoutePrefix,
    decorateReply: false,
    immutable: true,
    maxAge: '365d',
    // Public variants only: never a file of an older layout (e.g. photos/<profile>/…) left in the folder.
    allowedPath: (pathName) => publicKeyFolders.some((folder) => pathName.startsWith(`/${folder}`)),
  });

  const api = app.withTypeProvider() as unknown as ZodApp;
  await api.register(healthRoutes);
  await api.register(sitesRoutes);
  await api.register(assetsRoutes);
  await api.register(accountsRoutes);
  await api.register(profilesRoutes);
  await api.register(photosRoutes);
  await api.register(privateMediaRoutes);
  await api.register(searchRoutes);
  await api.register(regionsRoutes);
  await api.register(landersRoutes);
  await api.register(likesRoutes);
  await api.register(chatsRoutes);
  await api.register(countsRoutes);
  await api.register(paymentsRoutes);
  await api.register(contentRoutes);
  await api.register(complaintsRoutes);
  await api.register(notificationsRoutes);
  await api.register(pwaRoutes);
  await api.register(seoRoutes);
  await app.register(liveRoutes);
  await api.register(staffRoutes);
  await api.register(operatorRoutes);
  await api.register(moderationRoutes);
  await api.register(sitesAdminRoutes);
  await api.register(profilesAdminRoutes);
  await api.register(statsRoutes);
  await api.register(moneyAdminRoutes);
  await app.register(operatorLiveRoutes);
  if (config.NODE_ENV === 'development') await api.register(devOutboxRoutes);
  // Unknown API paths answer JSON 404 and never fall through to the page renderer.
  app.all('/api/*', { schema: { hide: true } }, async () => {
    throw new NotFoundError();
  });

  if (options.web) await registerWeb(app, options.web);

  return app;
}
