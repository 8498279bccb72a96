import { mkdirSync } from 'node:fs';
import path from 'node:path';
import fastifyCompress from '@fastify/compress';
import fastifyCookie from '@fastify/cookie';
import fastifyMultipart from '@fastify/multipart';
import fastifyRateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import fastifyWebsocket from '@fastify/websocket';
import Fastify, { type FastifyInstance } from 'fastify';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { Redis } from 'ioredis';
import type { Locale } from '#contract/locales.ts';
import type { Config } from './config.ts';
import { type Database, type DatabaseHandle, openDatabase } from './db/client.ts';
import type { SiteRow } from './db/schema/sites.ts';
import { type Clock, systemClock } from './lib/clock.ts';
import { registerErrorHandler } from './lib/error-handler.ts';
import { NotFoundError, RateLimitedError } from './lib/errors.ts';
import { createLocalBus, createRedisBus, type EventBus } from './lib/event-bus.ts';
import { createTranslator, type Translator } from './lib/i18n.ts';
import { registerRequestContext } from './lib/request-context.ts';
import { loadSecrets, type Secrets } from './lib/secrets.ts';
import { createSmsOutbox, type SmsSender } from './lib/sms.ts';
import { createLocalStorage, createS3Storage, type MediaStorage, mediaRoutePrefix } from './lib/storage.ts';
import type { ZodApp } from './lib/zod-app.ts';
import { accountsRoutes } from './modules/accounts/accounts.routes.ts';
import { AccountsService } from './modules/accounts/accounts.service.ts';
import { registerSessions } from './modules/accounts/sessions.ts';
import { assetsRoutes } from './modules/assets/assets.routes.ts';
import { chatsRoutes } from './modules/chats/chats.routes.ts';
import { ChatsService } from './modules/chats/chats.service.ts';
import { complaintsRoutes } from './modules/content/complaints.routes.ts';
import { contentRoutes } from './modules/content/content.routes.ts';
import { seedDemo } from './modules/demo/demo.seed.ts';
import { healthRoutes } from './modules/health/health.routes.ts';
import { likesRoutes } from './modules/likes/likes.routes.ts';
import { LikesService } from './modules/likes/likes.service.ts';
import { liveRoutes } from './modules/live/live.routes.ts';
import { devOutboxRoutes } from './modules/mail/dev-outbox.routes.ts';
import { MailQueue } from './modules/mail/mail.service.ts';
import {
  createOutboxTransport,
  createSmtpTransport,
  type MailTransport,
} from './modules/mail/mail-transport.ts';
import { notificationsRoutes } from './modules/notifications/notifications.routes.ts';
import { NotificationsService, type PushSender } from './modules/notifications/notifications.service.ts';
import { pwaRoutes } from './modules/notifications/pwa.routes.ts';
import { DirectDebitService } from './modules/payments/direct-debit.service.ts';
import { paymentsRoutes } from './modules/payments/payments.routes.ts';
import { PaymentsService } from './modules/payments/payments.service.ts';
import { createMollieProvider, createTestProvider } from './modules/payments/providers.ts';
import { maxUploadBytes, photosRoutes } from './modules/photos/photos.routes.ts';
import { PhotosService } from './modules/photos/photos.service.ts';
import { profilesRoutes } from './modules/profiles/profiles.routes.ts';
import { ProfilesService } from './modules/profiles/profiles.service.ts';
import { regionsRoutes } from './modules/regions/regions.routes.ts';
import { searchRoutes } from './modules/search/search.routes.ts';
import { SearchService } from './modules/search/search.service.ts';
import { sitesRoutes } from './modules/sites/sites.routes.ts';
import { SiteDirectory } from './modules/sites/sites.service.ts';
import { registerWeb, type WebMode } from './web/ssr.ts';

export type AppDeps = {
  config: Config;
  db: Database;
  databaseKind: DatabaseHandle['kind'];
  bus: EventBus;
  redis: Redis | null;
  sites: SiteDirectory;
  translator: Translator;
  secrets: Secrets;
  storage: MediaStorage;
  clock: Clock;
  mail: MailQueue;
  accounts: AccountsService;
  profiles: ProfilesService;
  photos: PhotosService;
  search: SearchService;
  likes: LikesService;
  chats: ChatsService;
  payments: PaymentsService;
  notifications: NotificationsService;
  directDebit: DirectDebitService;
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
};

/** A hop count: trust that many proxies in front of this server (as proxy-addr does for a number). */
function trustHops(hops: number) {
  return (_address: string, hop: number) => hop < hops;
}

function paymentProvider(config: Config, db: Database) {
  if (config.PAYMENT_PROVIDER === 'mollie') {
    if (!config.MOLLIE_API_KEY) throw new Error('PAYMENT_PROVIDER=mollie needs MOLLIE_API_KEY');
    return createMollieProvider(config.MOLLIE_API_KEY);
  }
  return createTestProvider(db);
}

export async function buildApp(config: Config, options: BuildOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger:
      config.LOG_LEVEL === 'silent'
        ? false
        : {
            level: config.LOG_LEVEL,
            redact: ['req.headers.cookie', 'req.headers.authorization', 'res.headers["set-cookie"]'],
          },
    trustProxy: typeof config.TRUST_PROXY === 'number' ? trustHops(config.TRUST_PROXY) : config.TRUST_PROXY,
    bodyLimit: 1024 * 1024,
    requestIdHeader: false,
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  const database =
    options.database ??
    (await openDatabase({
      databaseUrl: config.DATABASE_URL,
      dataDir: config.DATA_DIR,
      poolSize: config.DATABASE_POOL_SIZE,
    }));
  await database.migrate();
  const redisPrefix = options.redisPrefix ?? 'dating:';
  const bus = config.REDIS_URL ? await createRedisBus(config.REDIS_URL, redisPrefix) : createLocalBus();
  const redis = config.REDIS_URL
    ? new Redis(config.REDIS_URL, { keyPrefix: redisPrefix, maxRetriesPerRequest: 3 })
    : null;

  if (config.SEED_DEMO) await seedDemo(database.db, { profiles: config.DEMO_PROFILES });

  const clock = options.clock ?? systemClock;
  const storage = config.S3_BUCKET
    ? createS3Storage({
        bucket: config.S3_BUCKET,
        region: config.S3_REGION,
        endpoint: config.S3_ENDPOINT,
        accessKeyId: config.S3_ACCESS_KEY_ID,
        secretAccessKey: config.S3_SECRET_ACCESS_KEY,
        publicUrl:
          config.S3_PUBLIC_URL ??
          (config.S3_ENDPOINT
            ? `${config.S3_ENDPOINT.replace(/\/$/, '')}/${config.S3_BUCKET}`
            : `https://${config.S3_BUCKET}.s3.${config.S3_REGION}.amazonaws.com`),
      })
    : createLocalStorage(path.join(config.DATA_DIR, 'media'));
  const translator = options.translator ?? createTranslator();
  const mailTransport =
    options.mailTransport ??
    (config.SMTP_URL
      ? createSmtpTransport(config.SMTP_URL)
      : createOutboxTransport(path.join(config.DATA_DIR, 'outbox')));
  const mail = new MailQueue(database.db, mailTransport, config.MAIL_FROM, clock, app.log);
  const secrets = await loadSecrets(database.db, config.SESSION_SECRET);
  const notifications = new NotificationsService(
    database.db,
    clock,
    mail,
    translator,
    secrets,
    config.PUBLIC_URL,
    options.pushSender,
  );
  const directDebit = new DirectDebitService(
    database.db,
    clock,
    options.smsSender ?? createSmsOutbox(path.join(config.DATA_DIR, 'sms-outbox')),
    translator,
  );
  const deps: AppDeps = {
    config,
    db: database.db,
    databaseKind: database.kind,
    bus,
    redis,
    sites: new SiteDirectory(database.db, bus),
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
    profiles: new ProfilesService(database.db, clock, storage),
    photos: new PhotosService(database.db, clock, storage),
    search: new SearchService(database.db, clock, storage),
    likes: new LikesService(database.db, clock, storage, bus, notifications),
    chats: new ChatsService(database.db, clock, storage, bus, notifications),
    payments: new PaymentsService(database.db, clock, bus, paymentProvider(config, database.db), directDebit),
    directDebit,
  };
  await deps.payments.ensureTimeBonusCode();
  app.decorate('deps', deps);
  app.addHook('onClose', async () => {
    deps.sites.close();
    await mail.stop();
    await bus.close();
    await redis?.quit().catch(() => undefined);
    await database.close();
  });

  await app.register(fastifyCookie, { secret: deps.secrets.sessionSecret });
  await app.register(fastifyWebsocket, { options: { maxPayload: 64 * 1024 } });
  await app.register(fastifyMultipart, { limits: { fileSize: maxUploadBytes, files: 1, fields: 5 } });
  await app.register(fastifyCompress, { global: true, threshold: 1024 });
  await app.register(fastifyRateLimit, {
    global: false,
    allowList: config.RATE_LIMIT_ALLOWLIST,
    ...(redis ? { redis, nameSpace: 'rate-limit:' } : {}),
    errorResponseBuilder: (_request, context) => new RateLimitedError(Math.ceil(context.ttl / 1000)),
  });
  registerRequestContext(app);
  registerSessions(app);
  registerErrorHandler(app);

  await app.register(fastifySwagger, {
    openapi: {
      info: {
        title: 'Dating platform API',
        description: 'The JSON API of the web UI, the installed app and outside clients (api-contract.md).',
        version: '1',
      },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(fastifySwaggerUi, { routePrefix: '/api/docs' });

  const mediaDir = path.join(config.DATA_DIR, 'media');
  mkdirSync(mediaDir, { recursive: true });
  await app.register(fastifyStatic, {
    root: mediaDir,
    prefix: mediaRoutePrefix,
    decorateReply: false,
    immutable: true,
    maxAge: '365d',
  });

  const api = app.withTypeProvider() as unknown as ZodApp;
  await api.register(healthRoutes);
  await api.register(sitesRoutes);
  await api.register(assetsRoutes);
  await api.register(accountsRoutes);
  await api.register(profilesRoutes);
  await api.register(photosRoutes);
  await api.register(searchRoutes);
  await api.register(regionsRoutes);
  await api.register(likesRoutes);
  await api.register(chatsRoutes);
  await api.register(paymentsRoutes);
  await api.register(contentRoutes);
  await api.register(complaintsRoutes);
  await api.register(notificationsRoutes);
  await api.register(pwaRoutes);
  await app.register(liveRoutes);
  if (config.NODE_ENV === 'development') await api.register(devOutboxRoutes);
  // Unknown API paths answer JSON 404 and never fall through to the page renderer.
  app.all('/api/*', { schema: { hide: true } }, async () => {
    throw new NotFoundError();
  });

  if (options.web) await registerWeb(app, options.web);

  return app;
}
