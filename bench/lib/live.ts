import type { Agent } from 'node:http';
import WebSocket from 'ws';
import { z } from 'zod';
import type { BenchMember } from './fixtures.ts';
import { percentile, request } from './load.ts';
import { rssOf } from './processes.ts';

const messageEventSchema = z.object({
  type: z.literal('message'),
  conversation: z.number(),
  message: z.object({ text: z.string().nullish() }),
});
export type MessageEvent = z.infer<typeof messageEventSchema>;

function asMessageEvent(raw: WebSocket.RawData): MessageEvent | null {
  try {
    const parsed = messageEventSchema.safeParse(JSON.parse(String(raw)));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** Opens a member's live socket and resolves once the server said `ready`. */
export function openSocket(port: number, member: BenchMember, onMessage?: (event: MessageEvent) => void) {
  return new Promise<WebSocket>((resolve, reject) => {
    const socket = new WebSocket(`ws://127.0.0.1:${port}/api/ws`, {
      headers: { cookie: member.cookie },
      perMessageDeflate: false,
    });
    const timer = setTimeout(() => {
      socket.terminate();
      reject(new Error('socket not ready within 30 s'));
    }, 30_000);
    socket.on('message', (raw) => {
      const text = String(raw);
      if (text === '{"type":"ready"}') {
        clearTimeout(timer);
        resolve(socket);
        return;
      }
      const event = onMessage && asMessageEvent(raw);
      if (event) onMessage(event);
    });
    socket.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
  });
}

/** Opens sockets for all members, `parallel` at a time. */
export async function openSockets(
  port: number,
  members: readonly BenchMember[],
  onMessage?: (member: BenchMember, event: MessageEvent) => void,
  parallel = 100,
): Promise<WebSocket[]> {
  const sockets: WebSocket[] = [];
  for (let start = 0; start < members.length; start += parallel) {
    const batch = members.slice(start, start + parallel);
    sockets.push(
      ...(await Promise.all(
        batch.map((member) => openSocket(port, member, onMessage && ((event) => onMessage(member, event)))),
      )),
    );
  }
  return sockets;
}

export async function closeSockets(sockets: readonly WebSocket[]): Promise<void> {
  for (const socket of sockets) socket.terminate();
  await new Promise((resolve) => setTimeout(resolve, 200));
}

export function sendMessage(port: number, from: BenchMember, to: BenchMember, text: string, agent?: Agent) {
  const body = JSON.stringify({ profile: to.profileId, text });
  return request(port, {
    agent,
    method: 'POST',
    path: '/api/chat.php',
    headers: {
      cookie: from.cookie,
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(body)),
      origin: `http://127.0.0.1:${port}`,
    },
    body,
  });
}

export type DeliveryResult = {
  sockets: number;
  rate: number;
  sent: number;
  p50: number;
  p95: number;
  p99: number;
  /** The senders' wait for the sending instance's answer (201), p50 and p99 in ms. */
  answerP50: number;
  answerP99: number;
  lost: number;
  errors: number;
  /** Failed sends by HTTP status (0: no answer). */
  failures: Record<string, number>;
};

/**
 * Live delivery across two instances: every receiver has a socket on `receivePort`; senders post
 * messages through `sendPort` at `rate` a second for `seconds`; each message's time from the send
 * to its arrival on the other instance's socket is recorded. Lost: sent (201) but never arrived.
 */
export async function liveDelivery(options: {
  sendPort: number;
  receivePort: number;
  senders: readonly BenchMember[];
  receivers: readonly BenchMember[];
  rate: number;
  seconds: number;
}): Promise<DeliveryResult> {
  const pending = new Map<string, number>();
  const latencies: number[] = [];
  const answers: number[] = [];
  const sockets = await openSockets(options.receivePort, options.receivers, (_member, event) => {
    const text = event.message.text ?? '';
    const sentAt = pending.get(text);
    if (sentAt === undefined) return;
    pending.delete(text);
    latencies.push(performance.now() - sentAt);
  });
  let sent = 0;
  let errors = 0;
  const failures: Record<string, number> = {};
  let sequence = 0;
  const inflight: Promise<void>[] = [];
  const started = performance.now();
  await new Promise<void>((resolve) => {
    const timer = setInterval(() => {
      const elapsed = (performance.now() - started) / 1000;
      const due = Math.min(Math.floor(elapsed * options.rate), options.rate * options.seconds);
      while (sequence < due) {
        const n = sequence++;
        const from = options.senders[n % options.senders.length]!;
        const to = options.receivers[(n * 7919) % options.receivers.length]!;
        const text = `bench ${n}`;
        const sentAt = performance.now();
        pending.set(text, sentAt);
        inflight.push(
          sendMessage(options.sendPort, from, to, text).then(
            (status) => {
              answers.push(performance.now() - sentAt);
              if (status === 201) sent++;
              else {
                errors++;
                failures[status] = (failures[status] ?? 0) + 1;
                pending.delete(text);
              }
            },
            () => {
              errors++;
              failures[0] = (failures[0] ?? 0) + 1;
              pending.delete(text);
            },
          ),
        );
      }
      if (sequence >= options.rate * options.seconds) {
        clearInterval(timer);
        resolve();
      }
    }, 5);
  });
  await Promise.all(inflight);
  // Whatever has not arrived 5 s after the last answer is lost.
  const deadline = performance.now() + 5000;
  while (pending.size > 0 && performance.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  await closeSockets(sockets);
  latencies.sort((a, b) => a - b);
  answers.sort((a, b) => a - b);
  return {
    sockets: sockets.length,
    rate: options.rate,
    sent,
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    p99: percentile(latencies, 99),
    answerP50: percentile(answers, 50),
    answerP99: percentile(answers, 99),
    lost: pending.size,
    errors,
    failures,
  };
}

/**
 * Resident memory per idle socket: the app's RSS before and after opening one socket per member,
 * each read after a full garbage collection (asked through the inspector at `inspectPort`), so
 * that what is measured is what holding the sockets takes, not how much garbage the heartbeats and
 * the handshakes happened to leave since the last collection (±4 KB a socket between runs).
 */
export async function rssPerSocket(
  port: number,
  pid: number | undefined,
  members: readonly BenchMember[],
  inspectPort: number,
) {
  // Warm up the socket path first, so code and caches are not counted as per-socket memory.
  await closeSockets(await openSockets(port, members.slice(0, 2000), undefined, 200));
  await new Promise((resolve) => setTimeout(resolve, 3000));
  const before = await settledRss(pid, inspectPort);
  const sockets = await openSockets(port, members, undefined, 200);
  const after = await settledRss(pid, inspectPort);
  await closeSockets(sockets);
  return { sockets: sockets.length, before, after, perSocket: (after - before) / sockets.length };
}

/** A process' RSS after a full garbage collection: the lowest of three readings, one a second. */
async function settledRss(pid: number | undefined, inspectPort: number): Promise<number> {
  await collectGarbage(inspectPort);
  let lowest = Number.POSITIVE_INFINITY;
  for (let i = 0; i < 3; i++) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    lowest = Math.min(lowest, rssOf(pid));
  }
  return lowest;
}

const inspectorTargetsSchema = z.array(z.object({ webSocketDebuggerUrl: z.string() }));

/** A full garbage collection in the process listening for the inspector on `inspectPort`. */
async function collectGarbage(inspectPort: number): Promise<void> {
  const response = await fetch(`http://127.0.0.1:${inspectPort}/json/list`);
  const [target] = inspectorTargetsSchema.parse(await response.json());
  if (!target) throw new Error(`no inspector target on port ${inspectPort}`);
  const inspector = new WebSocket(target.webSocketDebuggerUrl);
  await new Promise<void>((resolve, reject) => {
    inspector.once('open', () => resolve());
    inspector.once('error', reject);
  });
  try {
    // Twice: objects that the first collection only made unreachable (weak references) go in the second.
    for (const id of [1, 2]) {
      await new Promise<void>((resolve, reject) => {
        inspector.on('message', (raw) => {
          if (String(raw).includes(`"id":${id}`)) resolve();
        });
        inspector.once('error', reject);
        inspector.send(JSON.stringify({ id, method: 'HeapProfiler.collectGarbage' }));
      });
    }
  } finally {
    inspector.close();
  }
}
