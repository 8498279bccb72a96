import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { defaultLocale } from '#contract/locales.ts';
import { renderSetupPage, setupLocale } from '#server/modules/setup/setup-page.ts';
import { NoSiteConfiguredError } from '#server/modules/sites/sites.service.ts';
import { AppError, NotFoundError, RateLimitedError } from './errors.ts';
import { loggableError } from './loggable-error.ts';
import { clientClosedStatus, clientGone, logClientClosed } from './logging.ts';

/** One failed check as fastify-type-provider-zod reports it. */
type FieldIssue = { keyword?: string; instancePath?: string; message?: string };

/** Our schemas name their field errors with a code as the message; zod's own messages are sentences. */
const fieldCode = /^[a-z][a-z_]*$/;

function fieldsOf(issues: FieldIssue[]): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of issues) {
    const path = issue.instancePath?.replace(/^\//, '').replaceAll('/', '.') || '_';
    const message = issue.message;
    fields[path] ??= message && fieldCode.test(message) ? message : (issue.keyword ?? 'invalid');
  }
  return fields;
}

/** A validation error about one field says what is wrong with it; several fields get the general message. */
function messageKey(code: string, details: Record<string, unknown>): string[] {
  const fields = details.fields as Record<string, string> | undefined;
  if (code === 'validation_failed' && fields) {
    const codes = Object.values(fields);
    if (codes.length === 1) return [`errors:field.${codes[0]}`, `errors:${code}`];
  }
  return [`errors:${code}`];
}

/** Fastify's own client errors, by code, as the contract's error codes. */
const fastifyClientErrors: Record<string, [number, string]> = {
  FST_ERR_CTP_INVALID_JSON_BODY: [400, 'invalid_json'],
  FST_ERR_CTP_EMPTY_JSON_BODY: [400, 'invalid_json'],
  FST_ERR_CTP_INVALID_MEDIA_TYPE: [415, 'unsupported_media_type'],
  FST_ERR_CTP_BODY_TOO_LARGE: [413, 'payload_too_large'],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: [400, 'bad_request'],
  FST_REQ_FILE_TOO_LARGE: [413, 'payload_too_large'],
  FST_FILES_LIMIT: [413, 'payload_too_large'],
  FST_INVALID_MULTIPART_CONTENT_TYPE: [415, 'unsupported_media_type'],
};

/** One place maps every error to the contract's body; a 5xx never carries the internal message. */
export function registerErrorHandler(app: FastifyInstance): void {
  const send = (
    request: FastifyRequest,
    reply: FastifyReply,
    status: number,
    code: string,
    details: Record<string, unknown> = {},
    specificKey?: string,
  ) => {
    const locale = request.locale ?? defaultLocale;
    const keys = specificKey
      ? [`errors:${specificKey}`, ...messageKey(code, details)]
      : messageKey(code, details);
    const message = app.deps.translator.t(locale, keys, details);
    return reply
      .status(status)
      .type('application/json; charset=utf-8')
      .send({ error: code, message, ...details });
  };

  // A request cut off halfway (a closed tab, a cancelled upload) is the client's doing, not an error.
  app.addHook('onRequestAbort', async (request) => logClientClosed(request));

  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (clientGone(request, error)) {
      // Nobody is there to read an answer: one info line with 499, never a logged 500.
      logClientClosed(request, reply, error);
      return reply.code(clientClosedStatus).send();
    }
    if (error instanceof NoSiteConfiguredError) {
      // SEED_DEMO=0 on an empty database: the operator's setup page, and 503 setup_required for API calls.
      const locale = setupLocale(request.headers['accept-language'], defaultLocale);
      if (request.url.startsWith('/api/')) {
        request.locale = locale;
        return send(request, reply, 503, 'setup_required');
      }
      return reply
        .status(503)
        .header('retry-after', '60')
        .type('text/html; charset=utf-8')
        .send(renderSetupPage(app.deps.translator, locale));
    }
    if (error instanceof RateLimitedError) {
      reply.header('retry-after', String(error.retryAfterSeconds));
      return send(request, reply, 429, error.code);
    }
    if (error instanceof AppError) {
      // A dependency that failed (provider_unavailable, not_ready…) is logged with its cause, never
      // silent. setup_required is no failure: the state before the first site, which every readiness
      // probe asks about (the start log says it once). not_ready: the readiness check has logged
      // which dependency is down, in one line without a stack (a probe every few seconds).
      if (error.status >= 500 && error.code !== 'setup_required' && error.code !== 'not_ready') {
        request.log.warn(
          { err: loggableError(error.cause ?? error), code: error.code, route: request.routeOptions.url },
          'request failed: a dependency did not answer',
        );
      }
      return send(request, reply, error.status, error.code, error.details, error.messageKey);
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      return send(request, reply, 422, 'validation_failed', {
        fields: fieldsOf(error.validation as FieldIssue[]),
      });
    }
    const known = error.code ? fastifyClientErrors[error.code] : undefined;
    if (known) return send(request, reply, known[0], known[1]);
    if (error instanceof SyntaxError && error.statusCode === 400)
      return send(request, reply, 400, 'invalid_json');
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      return send(request, reply, error.statusCode, 'bad_request');
    }
    request.log.error(
      { err: loggableError(error), route: request.routeOptions.url, method: request.method },
      'request failed',
    );
    return send(request, reply, 500, 'internal_error');
  });

  // Some plugins answer a 4xx themselves without a body (a plain GET on the WebSocket route is a bare
  // 404): an API answer still carries the contract's body.
  app.addHook('onSend', async (request, reply, payload) => {
    if (reply.statusCode < 400 || reply.statusCode >= 500 || !request.url.startsWith('/api/')) return payload;
    if (payload !== undefined && payload !== null && payload !== '') return payload;
    const code = reply.statusCode === 404 ? 'not_found' : 'bad_request';
    const message = app.deps.translator.t(request.locale ?? defaultLocale, [`errors:${code}`], {});
    reply.type('application/json; charset=utf-8');
    return JSON.stringify({ error: code, message });
  });

  app.setNotFoundHandler((request, reply) => {
    const error = new NotFoundError();
    return send(request, reply, error.status, error.code);
  });
}
