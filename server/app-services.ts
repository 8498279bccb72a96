import type { FastifyInstance } from 'fastify';
import type { Infrastructure } from './app-infrastructure.ts';
import { reportPaymentFailures } from './app-payment-reports.ts';
import { watchQueues } from './app-queue-metrics.ts';
import type { AppDeps, BuildOptions } from './app-types.ts';
import { registerBackgroundJobs } from './background-jobs.ts';
import type { Config } from './config.ts';
import type { Metrics } from './lib/metrics.ts';
import { closeRedis } from './lib/redis-close.ts';
import { createSmsSender } from './lib/sms.ts';
import { AccountsService } from './modules/accounts/accounts.service.ts';
import { SessionCache } from './modules/accounts/session-cache.ts';
import { ChatListCache } from './modules/chats/chat-list-cache.ts';
import { ChatsService } from './modules/chats/chats.service.ts';
import { EngagementService } from './modules/engagement/engagement.service.ts';
import { JobRunner } from './modules/jobs/job-runner.ts';
import { LikesService } from './modules/likes/likes.service.ts';
import { MailQueue } from './modules/mail/mail.service.ts';
import { NotificationsService } from './modules/notifications/notifications.service.ts';
import { localPresenceStore, Presence, redisPresenceStore } from './modules/notifications/presence.ts';
import { NudgesService } from './modules/nudges/nudges.service.ts';
import { WinbackService } from './modules/nudges/winback.service.ts';
import { OperatorService } from './modules/operator/operator.service.ts';
import { DirectDebitService } from './modules/payments/direct-debit.service.ts';
import { PaymentsService } from './modules/payments/payments.service.ts';
import { PhotosService } from './modules/photos/photos.service.ts';
import { ThreadScreener } from './modules/photos/screener.ts';
import { ScreeningService } from './modules/photos/screening.service.ts';
import { ProfilesService } from './modules/profiles/profiles.service.ts';
import { SearchService } from './modules/search/search.service.ts';
import { SearchCounts } from './modules/search/search-counts.ts';
import { SecurityService } from './modules/security/security.service.ts';
import { SiteDirectory } from './modules/sites/sites.service.ts';
import { ensureStaffAtStart } from './modules/staff/staff.bootstrap.ts';
import { StaffService } from './modules/staff/staff.service.ts';
import { StatsService } from './modules/stats/stats.service.ts';
import { SupervisionService } from './modules/supervision/supervision.service.ts';
import { httpPostbackSender, PostbackQueue } from './modules/tracking/postbacks.ts';
import { TrackingService } from './modules/tracking/tracking.service.ts';

/**
 * Every service, wired on the infrastructure, with what reports their failures and the caches
 * they are dropped through; `close` stops what they started (the app's onClose).
 */
export async function createServices(
  app: FastifyInstance,
  config: Config,
  options: BuildOptions,
  metrics: Metrics,
  infra: Infrastructure,
): Promise<{ deps: AppDeps; close(): Promise<void> }> {
  const { database, reads, bus, redis, clock, translator, secrets, storage, provider } = infra;
  const { db } = database;
  const caught = metrics.caught;
  const { reportCaught } = caught;
  const logins = {
    maxFailures: config.LOGIN_MAX_FAILURES,
    windowMinutes: config.LOGIN_WINDOW_MINUTES,
    lockMinutes: config.LOGIN_LOCK_MINUTES,
  };
  const jobs = new JobRunner(db, clock, { reportCaught, metrics });
  const mail = new MailQueue(db, infra.mailTransport, config.MAIL_FROM, clock, app.log, jobs, metrics);
  // Presence in Redis (or this process), copied to the database in batches (decision 007).
  const presence = new Presence(
    db,
    clock,
    redis ? redisPresenceStore(redis) : localPresenceStore(clock),
    (error) => reportCaught('presence.store-or-copy', error),
  );
  presence.start();
  const notifications = new NotificationsService(
    db,
    clock,
    mail,
    translator,
    secrets,
    config,
    jobs,
    options.pushSender,
    presence,
  );
  notifications.onPushFailure = (failure) => {
    // The job runner counts the push.send attempts (job_failures_total); this counts why.
    metrics.pushFailures.inc({ reason: failure.reason });
    app.log[failure.reason === 'gone' ? 'info' : 'warn'](failure, 'push delivery failed');
  };
  const smsSender = options.smsSender ?? createSmsSender(config);
  const directDebit = new DirectDebitService(db, clock, smsSender, translator, reportCaught, provider);
  const sites = new SiteDirectory(db, bus);
  // Finished conversation lists per member for a few seconds (chats/chat-list-cache.ts).
  const chatLists = new ChatListCache(config.CHAT_LIST_CACHE_MS);
  const profiles = new ProfilesService(db, clock, storage, (userId) => chats.listChanged(userId), reads);
  const likes = new LikesService(db, clock, storage, bus, reportCaught, notifications, reads);
  // A visit that cannot be recorded is reported; the profile page opens all the same.
  profiles.onVisit = async (viewer, visitor, visited) => {
    await caught.bestEffort('visit.record', () => likes.recordVisit(viewer, visitor, visited));
  };
  const chats = new ChatsService(db, clock, storage, bus, reportCaught, notifications, chatLists, reads);
  const staff = new StaffService(db, clock, logins);
  const security = new SecurityService(db, clock, secrets.banSecret);
  const payments = new PaymentsService(db, clock, bus, provider, directDebit);
  reportPaymentFailures(payments, metrics, app.log);
  const screener = options.screener ?? new ThreadScreener();
  const screening = new ScreeningService(db, clock, storage, jobs, screener, metrics, reportCaught);
  chats.screening = screening;
  const accounts = new AccountsService(db, clock, mail, translator, storage, logins, security);
  const engagement = new EngagementService(db, clock, jobs, sites, chats, likes, reportCaught);
  // An activation schedules the site's opener scripts in its own transaction.
  accounts.onActivated = (tx, member) => engagement.memberActivated(tx, member);
  const stats = new StatsService(db, clock);
  const searchCounts = new SearchCounts(config.SEARCH_COUNT_CACHE_MS, clock);
  const postbackSender = options.postbackSender ?? httpPostbackSender(config.NODE_ENV !== 'production');
  const deps: AppDeps = {
    config,
    metrics,
    jobs,
    caught,
    db,
    reads,
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
    profiles,
    chats,
    payments,
    directDebit,
    staff,
    security,
    accounts,
    photos: new PhotosService(db, clock, storage, screening),
    screening,
    search: new SearchService(db, clock, storage, searchCounts, reads),
    likes,
    operator: new OperatorService(db, clock, storage, bus, sites, chats, profiles, staff, stats),
    supervision: new SupervisionService(db, clock, sites, chats, staff),
    tracking: new TrackingService(db, clock),
    postbacks: new PostbackQueue(db, clock, postbackSender, app.log, jobs),
    stats,
    nudges: new NudgesService(
      db,
      clock,
      sites,
      likes,
      chats,
      notifications,
      mail,
      translator,
      config,
      metrics,
    ),
    winback: new WinbackService(db, clock, sites, notifications, mail, translator, config, metrics),
    engagement,
    staffStart: { adminCreated: false, demoAdmin: null },
    // The one cache the chats service drops and the list route reads.
    chatLists,
  };
  await payments.ensureTimeBonusCode();
  await deps.photos
    .moveLegacyMedia()
    .then((moved) => moved > 0 && app.log.info({ photos: moved }, 'photos moved to private media'))
    .catch((error: unknown) => reportCaught('photos.move-to-private-media', error, 'error'));
  // Sessions resolved in the last seconds, dropped over the event bus when they change (decision 014).
  const sessionCache = new SessionCache(config.SESSION_CACHE_MS);
  deps.accounts.cacheSessions(sessionCache, bus);
  const stopSessionCache = sessionCache.listen(bus);
  const stopChatListCache = chatLists.listen(bus);
  watchQueues(deps, database);
  registerBackgroundJobs(deps, app.log);
  deps.staffStart = await ensureStaffAtStart(config, staff);
  return {
    deps,
    async close() {
      sites.close();
      await jobs.stop();
      await screening.close();
      mail.stop();
      await reads.stop();
      await bus.close();
      stopSessionCache();
      stopChatListCache();
      await presence.stop();
      if (redis) await closeRedis(redis).catch((error: unknown) => reportCaught('redis.quit', error));
      await database.close();
    },
  };
}
