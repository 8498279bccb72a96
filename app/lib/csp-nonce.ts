import { createContext } from 'react';

/**
 * The response's CSP nonce, for our own inline scripts. Set by entry.server; in the browser it is
 * empty, which matches the server's markup because browsers hide nonce attributes from the DOM.
 */
export const CspNonceContext = createContext('');

/**
 * Runs before any module script: zod must not probe for `new Function` in the browser, because our
 * CSP forbids eval and Chromium reports the probe as a violation even though zod catches it. Zod
 * reads this object when its core loads, so no module order can come first. The server keeps the JIT.
 */
export const zodJitlessScript = 'globalThis.__zod_globalConfig={jitless:true};';
