/**
 * The operators' console at scale (bench/README.md, "Operator console"): the app in production mode
 * on PostgreSQL + Redis (a fresh database, dropped at the end; rate limits off), then
 *
 * 1. `GET /api/admin/inbox.php` one request after another (p95) with 10 waiting conversations (the
 *    reference) and with 1,000;
 * 2. 20 operator consoles on real WebSockets (`/api/admin/ws`) while members write to a fictional
 *    profile one after another: from the member's `chat.php` to the `inbox` frame in every console
 *    (p99; the member's own wait for `chat.php` is the reference);
 * 3. a scripted operator in Debian's Chromium (Playwright) answering 30 queued conversations with
 *    claim-next (N) and Ctrl+Enter: UI time per reply, from the send key to the next conversation's
 *    reply box focused, and the clicks it took (0).
 *
 *   node --import tsx bench/operators.ts            # 1,000 waiting, 100 live messages, 30 replies
 *   node --import tsx bench/operators.ts --quick    # 200 waiting, 20 messages, 5 replies
 *
 * Beside each inbox measure, the pg floor (bench/floors.ts: Fastify + `pg` answering one primary-key
 * select) is timed the same way in the same minute: the reference for how loaded the machine was.
 *
 * DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres), REDIS_URL (default
 * redis://127.0.0.1:6379, under a prefix of its own), BENCH_PORT (default 3351) and the port after it
 * (the floor). Needs `npm run build`.
 */
import { execSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { chromium } from 'playwright';
import WebSocket from 'ws';
import { z } from 'zod';
import { landerVideoKinds, landerVideoReady } from '../server/modules/landers/lander-video.ts';
import { landerMediaDir } from '../server/modules/landers/landers.service.ts';
import { type BenchMember, freshDatabase, seedMembers } from './lib/fixtures.ts';
import { sendMessage } from './lib/live.ts';
import { percentile, sequential } from './lib/load.ts';
import { bundleServer, projectRoot, startApp, startFloor, waitForBuild } from './lib/processes.ts';

const quick = process.argv.includes('--quick');
const sizes = quick
  ? { waiting: 200, consoles: 20, messages: 20, replies: 5, inboxRequests: 60 }
  : { waiting: 1000, consoles: 20, messages: 100, replies: 30, inboxRequests: 300 };
const port = Number(process.env.BENCH_PORT ?? 3351);
const adminUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const appUrl = `http://127.0.0.1:${port}`;
const log = (line: string) => console.error(`[${new Date().toISOString().slice(11, 19)}] ${line}`);

/** SQL of a session token's stored hash: SHA-256, base64url without padding (server/lib/tokens.ts). */
const tokenHashSql = (token: string) =>
  `rtrim(translate(encode(sha256(convert_to(${token}, 'UTF8')), 'base64'), '+/', '-_'), '=')`;

/** `count` operators (all sites and languages, TOTP enrolled) each signed in as `staff_sid=bench-staff-<id>`. */
async function seedOperators(db: pg.Pool, count: number): Promise<{ id: number; cookie: string }[]> {
  const { rows } = await db.query<{ id: number }>(
    `with s as (
       insert into staff (email, name, role, password_hash, totp_secret, created_at)
       select 'operator' || g || '@bench.invalid', 'Operator ' || g, 'operator', 'unused', 'JBSWY3DPEHPK3PXP', now()
       from generate_series(1, $1::int) g
       returning id),
     sessions as (
       insert into staff_sessions (token_hash, staff_id, created_at, expires_at)
       select ${tokenHashSql(`'bench-staff-' || id`)}, id, now(), now() + interval '12 hours' from s)
     select id from s order by id`,
    [count],
  );
  return rows.map((row) => ({ id: row.id, cookie: `staff_sid=bench-staff-${row.id}` }));
}

/**
 * Each member waiting for the fictional profile: one message of theirs, the conversation's
 * waiting_since and waiting member set as the message write sets them (waits spread over the last
 * two hours).
 */
async function seedWaiting(db: pg.Pool, members: readonly BenchMember[], fictional: number): Promise<void> {
  await db.query(
    `with c as (
       insert into conversations (low_profile_id, high_profile_id, started_by_profile_id, created_at, last_message_at, waiting_since, waiting_user_id)
       select least(p, $1::int), greatest(p, $1::int), p, now(), now(), now() - (p % 997) * interval '7 seconds',
         (select user_id from profiles where id = p)
       from unnest($2::int[]) p
       returning id, started_by_profile_id, waiting_since)
     insert into messages (conversation_id, sender_profile_id, kind, text, credits, created_at)
     select id, started_by_profile_id, 'text', 'Are you there?', 0, waiting_since from c`,
    [fictional, members.map((member) => member.profileId)],
  );
}

function openConsole(cookie: string, onEvent: (event: unknown, at: number) => void): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`ws://127.0.0.1:${port}/api/admin/ws`, {
      headers: { cookie },
      perMessageDeflate: false,
    });
    const timer = setTimeout(() => {
      socket.terminate();
      reject(new Error('console socket not ready within 30 s'));
    }, 30_000);
    socket.on('message', (raw) => {
      const at = performance.now();
      const event: unknown = JSON.parse(String(raw));
      if (z.object({ type: z.literal('ready') }).safeParse(event).success) {
        clearTimeout(timer);
        resolve(socket);
        return;
      }
      onEvent(event, at);
    });
    socket.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
  });
}

const inboxFrame = z.object({
  type: z.literal('inbox'),
  op: z.enum(['add', 'update']),
  conversation: z.object({ id: z.number(), member: z.object({ id: z.number() }) }),
});

type Figures = Record<string, unknown>;

/** inbox.php one request after another, and the pg floor the same way just before it. */
async function measureInbox(cookie: string, floorUrl: string): Promise<Figures> {
  const url = `${appUrl}/api/admin/inbox.php`;
  await sequential(floorUrl, 30);
  const floor = await sequential(floorUrl, sizes.inboxRequests);
  await sequential(url, 30, { cookie });
  return { ...(await sequential(url, sizes.inboxRequests, { cookie })), floorP95: floor.p95 };
}

async function liveDelivery(
  consoles: readonly { cookie: string }[],
  senders: readonly BenchMember[],
  fictional: BenchMember,
): Promise<Figures> {
  const sentAt = new Map<number, number>();
  const received = new Map<number, number[]>();
  const sockets = await Promise.all(
    consoles.map((operator) =>
      openConsole(operator.cookie, (event, at) => {
        const frame = inboxFrame.safeParse(event);
        if (!frame.success) return;
        const since = sentAt.get(frame.data.conversation.member.id);
        if (since === undefined) return;
        const list = received.get(frame.data.conversation.member.id) ?? [];
        // The first frame about the member's conversation is the one the console shows.
        if (list.length < consoles.length) list.push(at - since);
        received.set(frame.data.conversation.member.id, list);
      }),
    ),
  );
  const answers: number[] = [];
  let failed = 0;
  for (const [index, sender] of senders.entries()) {
    const started = performance.now();
    sentAt.set(sender.profileId, started);
    const status = await sendMessage(port, sender, fictional, `Hello, live message ${index}`);
    answers.push(performance.now() - started);
    if (status !== 201) failed++;
    // One message every 100 ms: the consoles' frames of one arrive before the next is sent.
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, 100 - (performance.now() - started))));
  }
  const deadline = performance.now() + 5000;
  const complete = () =>
    senders.every((sender) => (received.get(sender.profileId)?.length ?? 0) >= consoles.length);
  while (!complete() && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  for (const socket of sockets) socket.close();
  const latencies = [...received.values()].flat().sort((a, b) => a - b);
  answers.sort((a, b) => a - b);
  const expected = senders.length * consoles.length;
  return {
    consoles: consoles.length,
    messages: senders.length,
    failedSends: failed,
    frames: latencies.length,
    lost: expected - latencies.length,
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    p99: percentile(latencies, 99),
    sendAnswerP50: percentile(answers, 50),
    sendAnswerP99: percentile(answers, 99),
  };
}

function chromiumPath(): string {
  return (
    process.env.CHROMIUM_PATH ??
    execSync('which chromium || which chromium-browser', { encoding: 'utf8' }).trim().split('\n')[0] ??
    ''
  );
}

/** The scripted operator: N claims the best conversation, each reply is typed and sent with Ctrl+Enter. */
async function browserOperator(cookie: string): Promise<Figures> {
  const browser = await chromium.launch({ executablePath: chromiumPath() });
  try {
    const context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
    const token = cookie.split('=')[1] ?? '';
    await context.addCookies(
      ['/admin', '/api/admin'].map((cookiePath) => ({
        name: 'staff_sid',
        value: token,
        domain: '127.0.0.1',
        path: cookiePath,
      })),
    );
    const page = await context.newPage();
    await page.addInitScript(() => {
      const counted = window as unknown as { benchClicks: number };
      counted.benchClicks = 0;
      document.addEventListener(
        'click',
        (event) => {
          if (event.isTrusted) counted.benchClicks++;
        },
        true,
      );
    });
    await page.goto(`${appUrl}/admin/inbox`);
    // Hydrated, and the console's socket said ready: its status shows live.
    await page.locator('[data-testid="live-status"].text-bg-success').waitFor({ timeout: 60_000 });
    const replyFocused = (previous: string) =>
      page.waitForFunction(
        (before) => {
          const box = document.activeElement;
          return (
            location.pathname !== before &&
            location.pathname.startsWith('/admin/conversations/') &&
            box instanceof HTMLTextAreaElement &&
            box.id === 'reply-text' &&
            !box.disabled &&
            box.value === ''
          );
        },
        previous,
        { polling: 'raf', timeout: 30_000 },
      );
    const firstStarted = performance.now();
    await page.keyboard.press('n');
    await replyFocused('/admin/inbox');
    const firstOpen = performance.now() - firstStarted;
    const times: number[] = [];
    const conversations = new Set<string>();
    for (let reply = 0; reply < sizes.replies; reply++) {
      const here = new URL(page.url()).pathname;
      conversations.add(here);
      await page.keyboard.type(`Thanks for writing, reply ${reply + 1}.`);
      const started = performance.now();
      await page.keyboard.press('Control+Enter');
      await replyFocused(here);
      times.push(performance.now() - started);
    }
    const clicks = await page.evaluate(() => (window as unknown as { benchClicks: number }).benchClicks);
    const sorted = [...times].sort((a, b) => a - b);
    return {
      replies: times.length,
      distinctConversations: conversations.size,
      firstOpenMs: firstOpen,
      p50: percentile(sorted, 50),
      p95: percentile(sorted, 95),
      max: sorted.at(-1) ?? Number.NaN,
      clicks,
      times,
    };
  } finally {
    await browser.close();
  }
}

async function main(): Promise<void> {
  const cleanups: (() => Promise<void>)[] = [];
  const workDir = mkdtempSync(path.join(os.tmpdir(), 'dating-bench-operators-'));
  cleanups.push(async () => rmSync(workDir, { recursive: true, force: true }));
  try {
    log(
      `operators bench ${quick ? '--quick ' : ''}on ${os.availableParallelism()} cores (${os.cpus()[0]?.model}), load ${os.loadavg()[0]?.toFixed(2)}`,
    );
    await waitForBuild();
    bundleServer();
    const database = await freshDatabase(adminUrl);
    cleanups.push(database.drop);
    const dataDir = path.join(workDir, 'app');
    const app = await startApp(port, {
      databaseUrl: database.url,
      redisUrl,
      redisPrefix: `bench_ops_${Date.now().toString(36)}:`,
      dataDir,
      demoProfiles: 40,
    });
    cleanups.push(app.stop);
    log(`app ready in ${(app.ms / 1000).toFixed(1)} s`);
    const videos = landerMediaDir(dataDir);
    const media = performance.now();
    while (!landerVideoKinds.every((kind) => landerVideoReady(videos, kind))) {
      if (performance.now() - media > 600_000)
        throw new Error('the demo media were not made within 10 minutes');
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
    const floor = await startFloor('pg', port + 1, database.url);
    cleanups.push(floor.stop);
    const floorUrl = `http://127.0.0.1:${floor.port}/`;
    const pool = new pg.Pool({ connectionString: database.url, max: 4 });
    cleanups.push(() => pool.end());
    const { rows: fictionalRows } = await pool.query<{ id: number; user_id: number }>(
      `select p.id, p.user_id from profiles p join users u on u.id = p.user_id join sites s on s.id = u.site_id
       where p.fictional and s.is_default order by p.id limit 1`,
    );
    const fictionalRow = fictionalRows[0];
    if (!fictionalRow) throw new Error('no fictional profile on the default site');
    const fictional: BenchMember = { userId: fictionalRow.user_id, profileId: fictionalRow.id, cookie: '' };
    const operators = await seedOperators(pool, sizes.consoles + 2);
    const [reader, browserStaff, ...consoles] = operators;
    const waitingMembers = await seedMembers(pool, sizes.waiting, 'waiting');
    const senders = await seedMembers(pool, sizes.messages, 'sender');
    await seedWaiting(pool, waitingMembers.slice(0, 10), fictional.profileId);
    await pool.query('vacuum analyze');
    const figures: Figures = {};
    figures.inbox10 = await measureInbox(reader!.cookie, floorUrl);
    log(`inbox.php at 10 waiting: ${JSON.stringify(figures.inbox10)}`);
    await seedWaiting(pool, waitingMembers.slice(10), fictional.profileId);
    await pool.query('vacuum analyze');
    await pool.query('checkpoint');
    figures.inboxFull = await measureInbox(reader!.cookie, floorUrl);
    log(`inbox.php at ${sizes.waiting} waiting: ${JSON.stringify(figures.inboxFull)}`);
    figures.live = await liveDelivery(consoles, senders, fictional);
    log(`live: ${JSON.stringify(figures.live)}`);
    figures.browser = await browserOperator(browserStaff!.cookie);
    log(`browser: ${JSON.stringify(figures.browser)}`);
    const small = z.object({ p95: z.number(), floorP95: z.number() }).parse(figures.inbox10);
    const full = z.object({ p95: z.number(), floorP95: z.number() }).parse(figures.inboxFull);
    const live = z
      .object({ p99: z.number(), lost: z.number(), sendAnswerP99: z.number() })
      .parse(figures.live);
    const ui = z.object({ p50: z.number(), clicks: z.number() }).parse(figures.browser);
    const goals = [
      [
        `inbox.php p95 at ${sizes.waiting} waiting`,
        `${full.p95.toFixed(1)} ms (pg floor p95 ${full.floorP95.toFixed(1)} ms)`,
        '≤ 50 ms',
        full.p95 <= 50,
      ],
      [
        'inbox.php p95, 1,000 vs 10 waiting',
        `${(full.p95 / small.p95).toFixed(2)} × (10: ${small.p95.toFixed(1)} ms, pg floor ${small.floorP95.toFixed(1)} ms)`,
        '≤ 1.5 ×',
        full.p95 <= 1.5 * small.p95,
      ],
      [
        `message → ${sizes.consoles} consoles, p99`,
        `${live.p99.toFixed(1)} ms, ${live.lost} lost (chat.php answer p99 ${live.sendAnswerP99.toFixed(1)} ms)`,
        '≤ 300 ms',
        live.p99 <= 300 && live.lost === 0,
      ],
      [
        `UI time per reply, median of ${sizes.replies}`,
        `${ui.p50.toFixed(0)} ms, ${ui.clicks} clicks`,
        '≤ 400 ms, 0 clicks',
        ui.p50 <= 400 && ui.clicks === 0,
      ],
    ] as const;
    console.log('| measure | figure | goal | pass |\n|---|---|---|---|');
    for (const [name, figure, goal, pass] of goals)
      console.log(`| ${name} | ${figure} | ${goal} | ${pass ? 'pass' : 'FAIL'} |`);
    const resultsDir = path.join(projectRoot, 'bench', 'results');
    mkdirSync(resultsDir, { recursive: true });
    writeFileSync(
      path.join(resultsDir, 'operators.json'),
      JSON.stringify({ date: new Date().toISOString(), quick, loadAverage: os.loadavg(), figures }, null, 2),
    );
  } finally {
    for (const cleanup of cleanups.reverse()) {
      await cleanup().catch((error: unknown) => log(`cleanup failed: ${String(error)}`));
    }
  }
}

await main();
