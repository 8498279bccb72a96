import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';

/** The path a malformed page address is rendered as: no route claims it, so it is the 404 page. */
export const malformedUrlPagePath = '/__malformed-url';

/** Headers of the rendered page worth passing on (its CSP carries the nonce of its own scripts). */
const pageHeaders = [
  'content-type',
  'content-security-policy',
  'x-content-type-options',
  'referrer-policy',
  'x-frame-options',
  'cache-control',
  'content-language',
  'vary',
];

/**
 * Fastify's `frameworkErrors`: an address that cannot be decoded (`/%E0%A4%A`) never reaches the
 * routes or the hooks. A page address gets the site's own 404 page, in the normal layout, rendered
 * through the whole pipeline (site, language, nonce) for a harmless path; an API address gets the
 * contract's error body. Never Fastify's raw JSON.
 */
export async function answerFrameworkError(
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<void> {
  const status = error.code === 'FST_ERR_BAD_URL' ? 404 : (error.statusCode ?? 400);
  const raw = request.raw.url ?? '/';
  if (raw.startsWith('/api/') || request.raw.method !== 'GET') {
    await reply
      .code(400)
      .type('application/json; charset=utf-8')
      .send({ error: 'bad_request', message: 'Bad request' });
    return;
  }
  const headers: Record<string, string> = {};
  for (const name of [
    'host',
    'cookie',
    'accept-language',
    'user-agent',
    'x-forwarded-proto',
    'x-forwarded-host',
    'x-forwarded-for',
  ]) {
    const value = request.raw.headers[name];
    if (typeof value === 'string') headers[name] = value;
  }
  const page = await request.server.inject({ method: 'GET', url: malformedUrlPagePath, headers });
  for (const name of pageHeaders) {
    const value = page.headers[name];
    if (typeof value === 'string') reply.header(name, value);
  }
  await reply.code(status).send(page.body);
}
