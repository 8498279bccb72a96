import type { LocaleResources } from '#contract/i18n.ts';
import type { Locale } from '#contract/locales.ts';

export type ApiResult<T = unknown> = {
  status: number;
  ok: boolean;
  data: T;
  /** Set-Cookie headers of the answer, for an action to hand on to the browser. */
  setCookies: string[];
};

export type ApiRequest = {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  body?: unknown;
  /** Set-Cookie headers of an earlier call in the same action (a new session): sent ahead of the visitor's. */
  cookies?: string[];
};

/** Calls the JSON API as the visitor (same cookies, host and language), in-process on the server. */
export type ApiCaller = <T = unknown>(path: string, request?: ApiRequest) => Promise<ApiResult<T>>;

declare module 'react-router' {
  interface AppLoadContext {
    api: ApiCaller;
    locale: Locale;
    /** The site's own origin (siteOrigin), for canonical and hreflang links; never the request's Host. */
    origin: string;
    /** The request locale's catalogs, for the server's render (the browser fetches `catalogsUrl`). */
    resources: LocaleResources;
    /** The same catalogs as a static, hashed file (server/web/catalog-files.ts). */
    catalogsUrl: string;
    /** This response's Content-Security-Policy nonce, for the page's inline scripts. */
    cspNonce: string;
  }
}
