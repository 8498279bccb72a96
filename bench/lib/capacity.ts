import http from 'node:http';
import type WebSocket from 'ws';
import type { BenchMember } from './fixtures.ts';
import { closeSockets, type MessageEvent, openSockets, sendMessage } from './live.ts';
import { percentile, request } from './load.ts';

/**
 * The capacity model of the performance goals: each active chat user keeps a live socket, sends a message to a
 * partner every ~20 s, reads the conversation on every message received, loads the chat list every
 * 60 s and a page (SSR) every 90 s. Healthy: HTTP average ≤ 100 ms, p99 ≤ 2 s, < 1 % errors,
 * send → receive p99 ≤ 2 s and nothing lost.
 */
export type StepResult = {
  users: number;
  requests: number;
  httpAvg: number;
  httpP99: number;
  errorRate: number;
  receiveP99: number;
  lost: number;
  healthy: boolean;
};

const sendEveryMs = 20_000;
const listEveryMs = 60_000;
const pageEveryMs = 90_000;

class Model {
  readonly http: number[] = [];
  readonly receive: number[] = [];
  errors = 0;
  pending = new Map<string, number>();
  sockets: WebSocket[] = [];
  timers: NodeJS.Timeout[] = [];
  sequence = 0;

  /**
   * Each user's own kept-alive connections, as each browser has its own. One pool for all users
   * (Node's agent reuses the most recently freed connection first) sent most requests down a few hot
   * connections, which the cluster had handed to one instance: one worker at 55–80 % of a core, the
   * other at 5–30 %, where users with their own connections spread over both.
   */
  private readonly agents = new Map<number, http.Agent>();
  private agentOf(member: BenchMember): http.Agent {
    let agent = this.agents.get(member.userId);
    if (!agent) {
      agent = new http.Agent({ keepAlive: true, maxSockets: 2 });
      this.agents.set(member.userId, agent);
    }
    return agent;
  }

  constructor(readonly port: number) {}

  async get(member: BenchMember, path: string): Promise<void> {
    const started = performance.now();
    try {
      const status = await request(this.port, {
        agent: this.agentOf(member),
        path,
        headers: { cookie: member.cookie, 'accept-encoding': 'gzip' },
      });
      if (status < 200 || status >= 300) this.errors++;
    } catch {
      this.errors++;
    }
    this.http.push(performance.now() - started);
  }

  async send(from: BenchMember, to: BenchMember): Promise<void> {
    const text = `cap ${this.sequence++}`;
    this.senderOf.set(text, from.profileId);
    this.pending.set(text, performance.now());
    const started = performance.now();
    const status = await sendMessage(this.port, from, to, text, this.agentOf(from)).catch(() => 0);
    this.http.push(performance.now() - started);
    if (status !== 201) {
      this.errors++;
      this.pending.delete(text);
    }
  }

  onMessage(member: BenchMember, event: MessageEvent): void {
    const text = event.message.text ?? '';
    const sentAt = this.pending.get(text);
    // The sender's own copy arrives too: only the partner's socket takes the time and reads.
    if (sentAt === undefined || !text.startsWith('cap ')) return;
    if (member.profileId === this.senderOf.get(text)) return;
    this.pending.delete(text);
    this.senderOf.delete(text);
    this.receive.push(performance.now() - sentAt);
    void this.get(member, `/api/chat.php?conversation=${event.conversation}`);
  }

  senderOf = new Map<string, number>();

  /** Adds users (in pairs) to the running model: sockets first, then their timers with random phases. */
  async add(users: readonly BenchMember[]): Promise<void> {
    this.sockets.push(
      ...(await openSockets(this.port, users, (member, event) => this.onMessage(member, event), 100)),
    );
    for (let i = 0; i + 1 < users.length; i += 2) {
      for (const [me, partner] of [
        [users[i]!, users[i + 1]!],
        [users[i + 1]!, users[i]!],
      ] as const) {
        const every = (ms: number, run: () => void) => {
          const start = setTimeout(() => {
            run();
            this.timers.push(setInterval(run, ms));
          }, Math.random() * ms);
          this.timers.push(start);
        };
        every(sendEveryMs, () => void this.send(me, partner));
        every(listEveryMs, () => void this.get(me, '/api/chats.php'));
        every(pageEveryMs, () => void this.get(me, Math.random() < 0.5 ? '/chats' : '/members'));
      }
    }
  }

  /** Figures of the window since the last call. */
  measure(users: number): StepResult {
    const http = this.http.splice(0).sort((a, b) => a - b);
    const receive = this.receive.splice(0).sort((a, b) => a - b);
    const now = performance.now();
    // Lost: older than 10 s and never arrived.
    let lost = 0;
    for (const [text, sentAt] of this.pending) {
      if (now - sentAt > 10_000) {
        lost++;
        this.pending.delete(text);
        this.senderOf.delete(text);
      }
    }
    const errors = this.errors;
    this.errors = 0;
    const httpAvg = http.reduce((sum, value) => sum + value, 0) / Math.max(1, http.length);
    const httpP99 = percentile(http, 99);
    const errorRate = errors / Math.max(1, http.length);
    const receiveP99 = percentile(receive, 99);
    return {
      users,
      requests: http.length,
      httpAvg,
      httpP99,
      errorRate,
      receiveP99,
      lost,
      healthy:
        http.length > 0 &&
        httpAvg <= 100 &&
        httpP99 <= 2000 &&
        errorRate < 0.01 &&
        receiveP99 <= 2000 &&
        lost === 0,
    };
  }

  async stop(): Promise<void> {
    for (const timer of this.timers) clearTimeout(timer);
    for (const agent of this.agents.values()) agent.destroy();
    await closeSockets(this.sockets);
  }
}

/**
 * Ramps the active users in `steps` (cumulative counts), each step held `seconds` after its
 * sockets are open; stops at the first unhealthy step. Returns every step and the highest healthy count.
 */
export async function capacity(options: {
  port: number;
  members: readonly BenchMember[];
  steps: readonly number[];
  seconds: number;
  log?: (line: string) => void;
}): Promise<{ steps: StepResult[]; highestHealthy: number }> {
  const model = new Model(options.port);
  const steps: StepResult[] = [];
  let active = 0;
  let highestHealthy = 0;
  try {
    for (const target of options.steps) {
      if (target > options.members.length) break;
      await model.add(options.members.slice(active, target));
      active = target;
      model.measure(active); // drop the ramp-up window
      await new Promise((resolve) => setTimeout(resolve, options.seconds * 1000));
      const step = model.measure(active);
      steps.push(step);
      options.log?.(
        `  capacity ${active} users: ${step.requests} requests, avg ${step.httpAvg.toFixed(0)} ms, p99 ${step.httpP99.toFixed(0)} ms, errors ${(step.errorRate * 100).toFixed(2)} %, receive p99 ${step.receiveP99.toFixed(0)} ms, lost ${step.lost} → ${step.healthy ? 'healthy' : 'unhealthy'}`,
      );
      if (!step.healthy) break;
      highestHealthy = active;
    }
  } finally {
    await model.stop();
  }
  return { steps, highestHealthy };
}
