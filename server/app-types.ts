import type { Redis } from 'ioredis';
import type { DestinationStream } from 'pino';
import type { Locale } from '#contract/locales.ts';
import type { Config } from './config.ts';
import type { Database, DatabaseHandle } from './db/client.ts';
import type { EmbeddedStart } from './db/embedded.ts';
import type { ReadRouter } from './db/read-router.ts';
import type { SiteRow } from './db/schema/sites.ts';
import type { CaughtErrors } from './lib/best-effort.ts';
import type { Clock } from './lib/clock.ts';
import type { EventBus } from './lib/event-bus.ts';
import type { Translator } from './lib/i18n.ts';
import type { Metrics } from './lib/metrics.ts';
import type { Secrets } from './lib/secrets.ts';
import type { SmsSender } from './lib/sms.ts';
import type { MediaStorage } from './lib/storage.ts';
import type { AccountsService } from './modules/accounts/accounts.service.ts';
import type { ChatListCache } from './modules/chats/chat-list-cache.ts';
import type { ChatsService } from './modules/chats/chats.service.ts';
import type { EngagementService } from './modules/engagement/engagement.service.ts';
import type { JobRunner } from './modules/jobs/job-runner.ts';
import type { LikesService } from './modules/likes/likes.service.ts';
import type { MailQueue } from './modules/mail/mail.service.ts';
import type { MailTransport } from './modules/mail/mail-transport.ts';
import type { NotificationsService, PushSender } from './modules/notifications/notifications.service.ts';
import type { NudgesService } from './modules/nudges/nudges.service.ts';
import type { WinbackService } from './modules/nudges/winback.service.ts';
import type { OperatorService } from './modules/operator/operator.service.ts';
import type { DirectDebitService } from './modules/payments/direct-debit.service.ts';
import type { PaymentsService } from './modules/payments/payments.service.ts';
import type { PaymentProvider } from './modules/payments/providers.ts';
import type { PhotosService } from './modules/photos/photos.service.ts';
import type { Screener } from './modules/photos/screener.ts';
import type { ScreeningService } from './modules/photos/screening.service.ts';
import type { ProfilesService } from './modules/profiles/profiles.service.ts';
import type { SearchService } from './modules/search/search.service.ts';
import type { SecurityService } from './modules/security/security.service.ts';
import type { SiteDirectory } from './modules/sites/sites.service.ts';
import type { StaffStart } from './modules/staff/staff.bootstrap.ts';
import type { StaffService } from './modules/staff/staff.service.ts';
import type { StatsService } from './modules/stats/stats.service.ts';
import type { SupervisionService } from './modules/supervision/supervision.service.ts';
import type { PostbackQueue, PostbackSender } from './modules/tracking/postbacks.ts';
import type { TrackingService } from './modules/tracking/tracking.service.ts';
import type { WebMode } from './web/ssr.ts';

/** What the app is made of: every service and the infrastructure under them (`app.deps`). */
export type AppDeps = {
  config: Config;
  metrics: Metrics;
  /** Logs and counts the errors a catch goes on from (server/lib/best-effort.ts); `metrics.caught`. */
  caught: CaughtErrors;
  db: Database;
  /** The handle of each read that a replica may serve (decision 056). */
  reads: ReadRouter;
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
  /** Photo screening after an upload (nudity, a face, an apparent minor; docs/decisions/045). */
  screening: ScreeningService;
  search: SearchService;
  likes: LikesService;
  chats: ChatsService;
  /** Finished conversation lists per member for a few seconds (chats/chat-list-cache.ts). */
  chatLists: ChatListCache;
  payments: PaymentsService;
  notifications: NotificationsService;
  directDebit: DirectDebitService;
  staff: StaffService;
  /** Passkeys (members and staff) and address bans. */
  security: SecurityService;
  operator: OperatorService;
  supervision: SupervisionService;
  /** Landing clicks (visits) and the postbacks of what they led to. */
  tracking: TrackingService;
  postbacks: PostbackQueue;
  stats: StatsService;
  /** Daily digests by mail and push (visitors, unread messages, likes), capped and quiet at night. */
  nudges: NudgesService;
  /** Win-back offers: a personal discount code for members gone inactive. */
  winback: WinbackService;
  /** Opener scripts and mass messages, as jobs of the one runner (decision 043). */
  engagement: EngagementService;
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
  /** What screens photos: the models' thread by default; tests hand in a stand-in or a failing one. */
  screener?: Screener;
  /** Where log lines go (tests read them); stdout by default. */
  logStream?: DestinationStream;
};
