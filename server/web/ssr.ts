import { existsSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import fastifyStatic from '@fastify/static';
import { createReadableStreamFromReadable } from '@react-router/node';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { createRequestHandler, type ServerBuild } from 'react-router';
import type { ApiCaller } from '#app/lib/load-context.ts';
import { localeCookieName } from '#contract/locales.ts';
import { AppError, CsrfError } from '#server/lib/errors.ts';
import { runInProcess } from '#server/lib/in-process.ts';
import { projectRoot } from '#server/lib/project-root.ts';
import { shareSession, withSharedSession } from '#server/modules/accounts/sessions.ts';
import { siteOrigin } from '#server/modules/sites/site-origin.ts';
import { CatalogFiles, catalogAreaOf, registerCatalogFiles } from './catalog-files.ts';
import { PageCache } from './page-cache.ts';

export { projectRoot };
export const buildDir = path.join(projectRoot, 'build');
export const serverBuildFile = path.join(buildDir, 'server', 'index.js');

export type WebMode = 'production' | 'development';

const forwardedHeaders = [
  'cookie',
  'host',
  'accept-language',
  'user-agent',
  'x-forwarded-for',
  'x-forwarded-host',
  'x-forwarded-proto',
] as const;

/** The loaders' API client: the same JSON API a browser calls, run in-process with the visitor's headers. */
export function apiCallerFor(app: FastifyInstance, request: FastifyRequest): ApiCaller {
  // The page's session, resolved once, serves its GET calls (sessions.ts, withSharedSession).
  const session = shareSession(request);
  return async (url, init = {}) => {
    const headers: Record<string, string> = {};
    for (const name of forwardedHeaders) {
      const value = request.headers[name];
      if (typeof value === 'string') headers[name] = value;
    }
    if (init.body !== undefined) headers['content-type'] = 'application/json';
    // The API answers in the page's language (a ?lang= page included): the first locale cookie wins.
    // Cookies an earlier call of the same action set (a new session) come first, so they win.
    const earlier = (init.cookies ?? []).map((cookie) => cookie.split(';')[0]).filter(Boolean);
    headers.cookie = [`${localeCookieName}=${request.locale}`, ...earlier, headers.cookie]
      .filter(Boolean)
      .join('; ');
    const method = init.method ?? 'GET';
    const response = await withSharedSession(session, method, () =>
      runInProcess(
        () =>
          app.inject({
            method,
            url,
            headers,
            remoteAddress: request.socket.remoteAddress ?? '127.0.0.1',
            ...(init.body !== undefined ? { payload: JSON.stringify(init.body) } : {}),
          }),
        request.url,
      ),
    );
    const setCookie = response.headers['set-cookie'];
    const data: unknown = response.body ? JSON.parse(response.body) : null;
    return {
      status: response.statusCode,
      ok: response.statusCode < 400,
      data: data as never,
      setCookies: setCookie === undefined ? [] : Array.isArray(setCookie) ? setCookie : [setCookie],
    };
  };
}

async function sendWebResponse(reply: FastifyReply, response: Response): Promise<FastifyReply> {
  reply.status(response.status);
  for (const [name, value] of response.headers) {
    if (name !== 'set-cookie') reply.header(name, value);
  }
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) reply.header('set-cookie', cookies);
  if (!response.body) return reply.send();
  return reply.send(Readable.fromWeb(response.body as import('node:stream/web').ReadableStream));
}

/**
 * The client build's files. Hashed assets are cached for a year; their brotli and gzip copies made
 * at build time (scripts/compress-assets.mjs) are sent as they are for `Accept-Encoding: br`/`gzip`
 * (preCompressed), and the global compression skips a response that already has a Content-Encoding.
 * The assets folder is one wildcard route: a route per file (some 700 with HEAD and the compressed
 * copies) cost the start a glob and ~300 ms of route building; an unknown asset is a
 * plain 404, never a page. The few files at the top (service worker, icon) keep a route each.
 */
export async function registerClientBuild(app: FastifyInstance, root: string): Promise<void> {
  await app.register(fastifyStatic, {
    root: path.join(root, 'assets'),
    prefix: '/assets/',
    index: false,
    preCompressed: true,
    setHeaders(res) {
      res.header('cache-control', 'public, max-age=31536000, immutable');
    },
  });
  await app.register(fastifyStatic, {
    root,
    prefix: '/',
    wildcard: false,
    globIgnore: ['assets/**'],
    index: false,
    preCompressed: true,
    decorateReply: false,
    setHeaders(res) {
      res.header('cache-control', 'public, max-age=3600');
    },
  });
}

let serverBuildLoad: Promise<ServerBuild> | undefined;

/**
 * The production page build, loaded once. The server's entry starts loading it while the embedded
 * database starts in its thread (docs/decisions/025); registerWeb finds it loaded.
 */
export function loadServerBuild(): Promise<ServerBuild> {
  serverBuildLoad ??= import(serverBuildFile) as Promise<ServerBuild>;
  return serverBuildLoad;
}

/**
 * Every URL that no API route claims is a page: React Router renders it on the server, and its
 * own route matching answers 404 for an unknown page.
 */
export async function registerWeb(app: FastifyInstance, mode: WebMode): Promise<void> {
  // Development hands React Router a function (the build changes with every edit), which it
  // re-derives per request: its route tree, ranked branches and static handler. Production hands it
  // the build itself, derived once (that re-derivation was ~8 % of a logged-in render's CPU).
  let serverBuild: ServerBuild | (() => Promise<ServerBuild>);

  if (mode === 'development') {
    const { createServer } = await import('vite');
    const middie = (await import('@fastify/middie')).default;
    const vite = await createServer({ server: { middlewareMode: true }, appType: 'custom' });
    await app.register(middie);
    app.use((req, res, next) => {
      if (req.url?.startsWith('/api/') || req.url?.startsWith('/media/')) return next();
      vite.middlewares(req, res, next);
    });
    app.addHook('onClose', () => vite.close());
    serverBuild = () => vite.ssrLoadModule('virtual:react-router/server-build') as Promise<ServerBuild>;
  } else {
    if (!existsSync(serverBuildFile)) {
      throw new Error(
        `No build at ${serverBuildFile}: run "npm run build" first (npm start does it for you).`,
      );
    }
    serverBuild = await loadServerBuild();
    await registerClientBuild(app, path.join(buildDir, 'client'));
  }

  const handle = createRequestHandler(serverBuild, mode);
  const catalogFiles = new CatalogFiles(app.deps.translator.translations);
  registerCatalogFiles(app, catalogFiles);

  const { config } = app.deps;
  // Never in development: a kept page would hide the edit just made.
  const pageCacheMs = mode === 'production' ? config.PAGE_CACHE_MS : 0;
  const pageCache = new PageCache(pageCacheMs);
  if (pageCache.enabled) {
    const stop = pageCache.listen(app.deps.bus);
    app.addHook('onClose', async () => stop());
  }
  await registerPages(
    app,
    (webRequest, request) => {
      const catalogs = catalogFiles.fileOf(request.locale, catalogAreaOf(request.url));
      return handle(webRequest, {
        api: apiCallerFor(app, request),
        locale: request.locale,
        origin: siteOrigin(request.site, config),
        resources: catalogs.resources,
        catalogsUrl: catalogs.url,
        cspNonce: request.cspNonce,
      });
    },
    pageCache,
  );
}

/** What a page action reads: a form, as a browser posts it. */
const formContentType = /^(application\/x-www-form-urlencoded|multipart\/form-data)\s*(;|$)/i;

/**
 * The catch-all page route: hands every page request to `render` as a web Request. A request with
 * a body must be a readable form from this site: any other body (JSON, broken multipart) is a 4xx
 * in the contract's shape here, never an exception inside a page action.
 */
export async function registerPages(
  app: FastifyInstance,
  render: (webRequest: Request, request: FastifyRequest) => Promise<Response>,
  pageCache: PageCache = new PageCache(0),
): Promise<void> {
  await app.register(async (pages) => {
    // Page actions read their own form bodies; hand them the raw stream.
    pages.removeAllContentTypeParsers();
    pages.addContentTypeParser('*', (_request, payload, done) => done(null, payload));

    pages.route({
      method: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
      url: '/*',
      schema: { hide: true },
      handler: async (request, reply) => {
        const hasBody = request.method !== 'GET' && request.method !== 'HEAD';
        // Page actions change data too: a form posted from another site is refused (CSRF).
        const origin = request.headers.origin;
        if (hasBody && origin !== undefined) {
          if (!URL.canParse(origin) || new URL(origin).host !== request.host) throw new CsrfError();
        }
        if (hasBody && !formContentType.test(request.headers['content-type'] ?? '')) {
          throw new AppError(415, 'unsupported_media_type');
        }
        // A public page as every visitor without a session sees it (page-cache.ts).
        const cacheKey = hasBody ? undefined : pageCache.keyOf(request);
        const kept = cacheKey === undefined ? undefined : pageCache.get(cacheKey, request.cspNonce);
        if (kept) {
          reply.status(kept.status);
          for (const [name, value] of kept.headers) reply.header(name, value);
          return reply.header('x-page-cache', 'hit').send(kept.body);
        }
        const controller = new AbortController();
        reply.raw.on('close', () => controller.abort());
        const url = new URL(request.url, `${request.protocol}://${request.host}`);
        const headers = new Headers();
        for (const [name, value] of Object.entries(request.headers)) {
          if (typeof value === 'string') headers.set(name, value);
          else if (Array.isArray(value)) for (const item of value) headers.append(name, item);
        }
        const webRequest = new Request(url, {
          method: request.method,
          headers,
          signal: controller.signal,
          ...(hasBody ? { body: createReadableStreamFromReadable(request.raw), duplex: 'half' } : {}),
        } as RequestInit);
        if (hasBody) {
          // A form that cannot be read (e.g. multipart without its boundary) is the sender's error.
          const readable = await webRequest
            .clone()
            .formData()
            .then(() => true)
            .catch(() => {
              // expected: the body is not a form the sender could have meant: 400 below.
              return false;
            });
          if (!readable) throw new AppError(400, 'bad_request');
        }
        const response = await render(webRequest, request);
        if (cacheKey !== undefined && pageCache.storable(response)) {
          const body = await response.text();
          pageCache.set(cacheKey, response, body, request.cspNonce);
          reply.status(response.status);
          for (const [name, value] of response.headers) reply.header(name, value);
          return reply.header('x-page-cache', 'miss').send(body);
        }
        return sendWebResponse(reply, response);
      },
    });
  });
}
