/**
 * An error the page goes on from, reported where a developer sees it: the console (a browser has
 * no /metrics). A warning, not console.error: the tests fail on console.error, which is kept for
 * errors nobody handled. A catch in app/ either shows the failure to the member, reports it here,
 * or handles an expected case and says so in a `// expected:` comment (server/lib/no-silent-catch.test.ts).
 */
export function reportCaught(where: string, error: unknown): void {
  console.warn(`${where} failed:`, error);
}
