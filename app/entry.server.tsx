import { createReadableStreamFromReadable } from '@react-router/node';
import { isbot } from 'isbot';
import type { RenderToPipeableStreamOptions } from 'react-dom/server';
import { renderToPipeableStream } from 'react-dom/server';
import type { AppLoadContext, EntryContext } from 'react-router';
import { ServerRouter } from 'react-router';
import { coalescedWrites } from '#app/lib/coalesced-writes.server.ts';
import { CspNonceContext } from '#app/lib/csp-nonce.ts';
import { CatalogsContext } from '#app/lib/i18n.ts';
import { scriptsAfterPaint } from '#app/lib/scripts-after-paint.server.ts';

export const streamTimeout = 5_000;

/**
 * React Router's default Node entry, plus the page's catalogs (in memory: the browser fetches the
 * same file, entry.client) and the response's Content-Security-Policy nonce: React's
 * streaming scripts and React Router's `<Scripts>`, `<ScrollRestoration>` and data scripts carry
 * it (ServerRouter hands it to them), so the page's CSP allows no other inline script.
 */
export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: AppLoadContext,
) {
  if (request.method.toUpperCase() === 'HEAD') {
    return new Response(null, { status: responseStatusCode, headers: responseHeaders });
  }
  const nonce = loadContext.cspNonce || undefined;

  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    let status = responseStatusCode;
    const userAgent = request.headers.get('user-agent');
    // Bots and SPA mode wait for all content; browsers get the shell first.
    const readyOption: keyof RenderToPipeableStreamOptions =
      (userAgent && isbot(userAgent)) || routerContext.isSpaMode ? 'onAllReady' : 'onShellReady';

    let timeoutId: ReturnType<typeof setTimeout> | undefined = setTimeout(
      () => abort(),
      streamTimeout + 1000,
    );

    const { pipe, abort } = renderToPipeableStream(
      <CspNonceContext.Provider value={nonce ?? ''}>
        <CatalogsContext.Provider
          value={{
            url: loadContext.catalogsUrl,
            locale: loadContext.locale,
            resources: loadContext.resources,
          }}
        >
          <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
        </CatalogsContext.Provider>
      </CspNonceContext.Provider>,
      {
        nonce,
        [readyOption]() {
          shellRendered = true;
          const body = coalescedWrites(() => {
            clearTimeout(timeoutId);
            timeoutId = undefined;
          });
          const stream = createReadableStreamFromReadable(body);
          responseHeaders.set('Content-Type', 'text/html');
          if (import.meta.env.PROD) {
            // The scripts load once the page has painted (lib/scripts-after-paint.server.ts).
            const rewrite = scriptsAfterPaint();
            rewrite.pipe(body);
            pipe(rewrite);
          } else pipe(body);
          resolve(new Response(stream, { headers: responseHeaders, status }));
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          status = 500;
          // Errors inside the shell are logged by React Router's document handler.
          if (shellRendered) console.error(error);
        },
      },
    );
  });
}
