import { mkdirSync } from 'node:fs';
import fastifyCompress from '@fastify/compress';
import fastifyCookie from '@fastify/cookie';
import fastifyMultipart from '@fastify/multipart';
import fastifyRateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import fastifySwaggerUi from '@fastify/swagger-ui';
import fastifyWebsocket from '@fastify/websocket';
import type { FastifyInstance } from 'fastify';
import type { Config } from './config.ts';
import { compressionOptions } from './lib/compression.ts';
import { registerErrorHandler } from './lib/error-handler.ts';
import { RateLimitedError } from './lib/errors.ts';
import { registerMetrics } from './lib/metrics.ts';
import { registerOpenApi } from './lib/openapi.ts';
import { failoverRateLimitStore } from './lib/rate-limit-store.ts';
import { registerRequestContext } from './lib/request-context.ts';
import { registerSecurityHeaders } from './lib/security-headers.ts';
import { localMediaFolders, mediaRoutePrefix, publicKeyFolders } from './lib/storage.ts';
import { registerSessions } from './modules/accounts/sessions.ts';
import { closeSocketsGoingAway } from './modules/live/live.routes.ts';
import { maxUploadBytes } from './modules/photos/photos.routes.ts';
import { registerLocalizedAbout } from './modules/profiles/localized-about.ts';
import { registerRegionLabels } from './modules/regions/region-labels.ts';
import { registerStaffSessions } from './modules/staff/staff.sessions.ts';

/**
 * What every request goes through before a route: cookies, security headers, WebSockets, uploads,
 * compression, rate limits, the request's site and language, sessions, the error handler, metrics,
 * the OpenAPI document and the public media folder.
 */
export async function registerPlugins(app: FastifyInstance, config: Config): Promise<void> {
  const { deps } = app;
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
    ...(deps.redis ? { store: failoverRateLimitStore(deps.redis, app.log, 'rate-limit:') } : {}),
    errorResponseBuilder: (_request, context) => new RateLimitedError(Math.ceil(context.ttl / 1000)),
  });
  registerRequestContext(app);
  registerRegionLabels(app);
  registerLocalizedAbout(app);
  registerSessions(app);
  registerStaffSessions(app);
  registerErrorHandler(app);
  registerMetrics(app, deps.metrics, config.METRICS_TOKEN);

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
}
