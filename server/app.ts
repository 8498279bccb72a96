import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { openInfrastructure } from './app-infrastructure.ts';
import { registerPlugins } from './app-plugins.ts';
import { registerRoutes } from './app-routes.ts';
import { createServices } from './app-services.ts';
import type { BuildOptions } from './app-types.ts';
import type { Config } from './config.ts';
import { AccessLog, childLoggerFactory, loggerOptions } from './lib/logging.ts';
import { Metrics } from './lib/metrics.ts';
import { collectRoutes } from './lib/openapi.ts';
import { registerRequestId, requestIdGenerator } from './lib/request-id.ts';
import { trustProxyOption, trustProxyTrueWarning } from './lib/trust-proxy.ts';
import { answerFrameworkError } from './web/malformed-url.ts';
import { registerWeb } from './web/ssr.ts';

/**
 * The app as production runs it and tests build it (server/main.ts listens; tests inject): Fastify
 * with its logging, the infrastructure (app-infrastructure.ts), the services on it (app-services.ts),
 * the plugins every request goes through (app-plugins.ts), the API (app-routes.ts) and the pages.
 */
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
  const infrastructure = await openInfrastructure(app, config, options, metrics);
  const { deps, close } = await createServices(app, config, options, metrics, infrastructure);
  app.decorate('deps', deps);
  app.addHook('onClose', close);
  await registerPlugins(app, config);
  await registerRoutes(app, config);
  if (options.web) await registerWeb(app, options.web);
  return app;
}
