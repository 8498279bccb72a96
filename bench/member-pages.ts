/**
 * Member pages on a phone: Lighthouse's mobile run with Debian's Chromium on search
 * (/members), a profile (/members/<id>) and a chat (/chats/<id>) of a logged-in member, printing
 * the accessibility and performance scores and every accessibility audit that failed.
 * Usage: node --import tsx bench/member-pages.ts [baseUrl]   (default http://localhost:3000)
 * It signs up a fresh member (e-mail bench-<time>@example.com), or logs in MEMBER_EMAIL with
 * MEMBER_PASSWORD when both are set, opens a conversation with the first search result and sends
 * one message (free), so the chat has a bubble to measure. Goal: accessibility ≥ 95 on each page;
 * it also prints the scripts each page loaded over the wire (the production goal: ≤ 155 KB).
 */
import { execSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';

export type MemberPageRow = {
  page: string;
  accessibility: number;
  performance: number;
  /** Lighthouse's simulated mobile metrics, ms (CLS unitless): what the performance score is made of. */
  fcp_ms: number;
  lcp_ms: number;
  tbt_ms: number;
  cls: number;
  /** The scripts the page loaded, KB over the wire (Lighthouse's resource summary; goal ≤ 155). */
  script_kb: number;
  failing: string;
};

type NodeItem = { node?: { selector?: string; snippet?: string } };

/** The elements an audit failed on (its table's nodes), for fixing them. */
function failingNodes(details: unknown): string[] {
  if (!details || typeof details !== 'object' || !('items' in details) || !Array.isArray(details.items))
    return [];
  return (details.items as NodeItem[]).flatMap((item) =>
    item.node?.selector ? [`${item.node.selector}  ${item.node.snippet?.slice(0, 120) ?? ''}`] : [],
  );
}

type SummaryItem = { resourceType?: string; transferSize?: number };
type RequestItem = SummaryItem & { url?: string };

/** Bytes over the wire of one kind of resource in Lighthouse's resource summary. */
function transferredOf(details: unknown, resourceType: string): number {
  if (!details || typeof details !== 'object' || !('items' in details) || !Array.isArray(details.items))
    return 0;
  const item = (details.items as SummaryItem[]).find((entry) => entry.resourceType === resourceType);
  return item?.transferSize ?? 0;
}

/** The Cookie header of a response's session (and any other cookie it sets). */
function cookiesOf(response: Response): string[] {
  return response.headers.getSetCookie().map((cookie) => cookie.split(';')[0] ?? '');
}

async function api(base: string, cookie: string, method: string, path: string, body?: unknown) {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { cookie, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (!response.ok) throw new Error(`${method} ${path}: HTTP ${response.status} ${await response.text()}`);
  return { response, json: (await response.json()) as Record<string, unknown> };
}

/** A logged-in member's cookies, a profile to look at and a conversation with it. */
async function memberSession(base: string) {
  const email = process.env.MEMBER_EMAIL;
  const password = process.env.MEMBER_PASSWORD;
  const login =
    email && password
      ? await api(base, '', 'POST', '/api/user.php', { email, password })
      : await api(base, '', 'POST', '/api/signup.php', {
          email: `bench-${Date.now()}@example.com`,
          name: `Bench${String(Date.now()).slice(-6)}`,
          // A throwaway member of this run: a password nobody needs to know.
          password: randomBytes(18).toString('base64url'),
          date_of_birth: '1988-04-12',
        });
  const cookie = ['skip_site_entry=1', ...cookiesOf(login.response)].join('; ');
  const search = await api(base, cookie, 'GET', '/api/search.php');
  const profiles = search.json.profiles;
  const first = Array.isArray(profiles) ? (profiles[0] as { id?: unknown } | undefined) : undefined;
  if (typeof first?.id !== 'number') throw new Error('the search found nobody to look at');
  const opened = await api(base, cookie, 'POST', '/api/conversation.php', { profile: first.id });
  await api(base, cookie, 'POST', '/api/chat.php', { profile: first.id, text: 'Hello, how is your week?' });
  return { cookie, profile: first.id, conversation: Number(opened.json.conversation) };
}

export async function measureMemberPages(base: string): Promise<MemberPageRow[]> {
  const { cookie, profile, conversation } = await memberSession(base);
  const pages = ['/members', `/members/${profile}`, `/chats/${conversation}`];
  const chrome = await chromeLauncher.launch({
    chromePath: execSync('which chromium', { encoding: 'utf8' }).trim(),
    chromeFlags: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  const rows: MemberPageRow[] = [];
  try {
    for (const page of pages) {
      const result = await lighthouse(`${base}${page}`, {
        port: chrome.port,
        output: 'json',
        logLevel: 'error',
        onlyCategories: ['accessibility', 'performance'],
        extraHeaders: { Cookie: cookie },
      });
      if (!result) throw new Error(`Lighthouse gave no result for ${page}`);
      const { lhr } = result;
      const accessibility = lhr.categories.accessibility;
      const failing = (accessibility?.auditRefs ?? [])
        .filter((ref) => ref.weight > 0 && (lhr.audits[ref.id]?.score ?? 1) < 1)
        .map((ref) => ref.id);
      for (const id of failing) {
        for (const node of failingNodes(lhr.audits[id]?.details)) console.log(`${page} ${id}: ${node}`);
      }
      if (process.env.BENCH_LIST_SCRIPTS) {
        const requests = lhr.audits['network-requests']?.details;
        if (requests && typeof requests === 'object' && 'items' in requests && Array.isArray(requests.items))
          for (const item of requests.items as RequestItem[])
            if (item.resourceType === 'Script')
              console.log(`${page} script ${Math.round((item.transferSize ?? 0) / 1024)} KB ${item.url}`);
      }
      rows.push({
        page,
        accessibility: Math.round((accessibility?.score ?? 0) * 100),
        performance: Math.round((lhr.categories.performance?.score ?? 0) * 100),
        fcp_ms: Math.round(lhr.audits['first-contentful-paint']?.numericValue ?? 0),
        lcp_ms: Math.round(lhr.audits['largest-contentful-paint']?.numericValue ?? 0),
        tbt_ms: Math.round(lhr.audits['total-blocking-time']?.numericValue ?? 0),
        cls: Number((lhr.audits['cumulative-layout-shift']?.numericValue ?? 0).toFixed(3)),
        script_kb: Math.round(transferredOf(lhr.audits['resource-summary']?.details, 'script') / 1024),
        failing: failing.join(', '),
      });
    }
  } finally {
    chrome.kill();
  }
  return rows;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const rows = await measureMemberPages(process.argv[2] ?? 'http://localhost:3000');
  console.table(rows);
  if (rows.some((row) => row.accessibility < 95)) process.exitCode = 1;
}
