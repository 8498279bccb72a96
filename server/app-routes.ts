import type { FastifyInstance } from 'fastify';
import type { Config } from './config.ts';
import { NotFoundError } from './lib/errors.ts';
import type { ZodApp } from './lib/zod-app.ts';
import { accountsRoutes } from './modules/accounts/accounts.routes.ts';
import { assetsRoutes } from './modules/assets/assets.routes.ts';
import { moneyAdminRoutes } from './modules/backoffice/money-admin.routes.ts';
import { profilesAdminRoutes } from './modules/backoffice/profiles-admin.routes.ts';
import { sitesAdminRoutes } from './modules/backoffice/sites-admin.routes.ts';
import { chatsRoutes } from './modules/chats/chats.routes.ts';
import { complaintsRoutes } from './modules/content/complaints.routes.ts';
import { contentRoutes } from './modules/content/content.routes.ts';
import { countsRoutes } from './modules/counts/counts.routes.ts';
import { engagementRoutes } from './modules/engagement/engagement.routes.ts';
import { healthRoutes } from './modules/health/health.routes.ts';
import { landersRoutes } from './modules/landers/landers.routes.ts';
import { likesRoutes } from './modules/likes/likes.routes.ts';
import { liveRoutes } from './modules/live/live.routes.ts';
import { devOutboxRoutes } from './modules/mail/dev-outbox.routes.ts';
import { moderationRoutes } from './modules/moderation/moderation.routes.ts';
import { notificationsRoutes } from './modules/notifications/notifications.routes.ts';
import { pwaRoutes } from './modules/notifications/pwa.routes.ts';
import { winbackRoutes } from './modules/nudges/winback.routes.ts';
import { operatorLiveRoutes, operatorRoutes } from './modules/operator/operator.routes.ts';
import { paymentsRoutes } from './modules/payments/payments.routes.ts';
import { privateMediaRoutes } from './modules/photos/media.routes.ts';
import { photosRoutes } from './modules/photos/photos.routes.ts';
import { profilesRoutes } from './modules/profiles/profiles.routes.ts';
import { regionsRoutes } from './modules/regions/regions.routes.ts';
import { searchRoutes } from './modules/search/search.routes.ts';
import { securityRoutes } from './modules/security/security.routes.ts';
import { staffSecurityRoutes } from './modules/security/staff-security.routes.ts';
import { seoRoutes } from './modules/sites/seo.routes.ts';
import { sitesRoutes } from './modules/sites/sites.routes.ts';
import { staffRoutes } from './modules/staff/staff.routes.ts';
import { statsRoutes } from './modules/stats/stats.routes.ts';
import { supervisionRoutes } from './modules/supervision/supervision.routes.ts';

/** The members' API, the live sockets, the staff API, and a JSON 404 for every other API path. */
export async function registerRoutes(app: FastifyInstance, config: Config): Promise<void> {
  const api = app.withTypeProvider() as unknown as ZodApp;
  for (const routes of [
    healthRoutes,
    sitesRoutes,
    assetsRoutes,
    accountsRoutes,
    securityRoutes,
    profilesRoutes,
    photosRoutes,
    privateMediaRoutes,
    searchRoutes,
    regionsRoutes,
    landersRoutes,
    likesRoutes,
    chatsRoutes,
    countsRoutes,
    paymentsRoutes,
    contentRoutes,
    complaintsRoutes,
    notificationsRoutes,
    pwaRoutes,
    seoRoutes,
  ])
    await api.register(routes);
  await app.register(liveRoutes);
  for (const routes of [
    staffRoutes,
    staffSecurityRoutes,
    operatorRoutes,
    supervisionRoutes,
    moderationRoutes,
    sitesAdminRoutes,
    profilesAdminRoutes,
    statsRoutes,
    moneyAdminRoutes,
    winbackRoutes,
    engagementRoutes,
  ])
    await api.register(routes);
  await app.register(operatorLiveRoutes);
  if (config.NODE_ENV === 'development') await api.register(devOutboxRoutes);
  // Unknown API paths answer JSON 404 and never fall through to the page renderer.
  app.all('/api/*', { schema: { hide: true } }, async () => {
    throw new NotFoundError();
  });
}
