/** A socket is pinged once per heartbeatMs; one that has not answered the previous ping is closed. */
export const heartbeatMs = 25_000;
/**
 * The sweep pings one of this many groups per tick (one a second), so a heartbeat's work is spread
 * over its period: at 5,000 sockets a tick pings ~200, a few milliseconds of the event loop, where
 * five groups made ~1,000 and a visible delay for every message delivered in that tick.
 */
export const heartbeatGroups = 25;
const groupCount = heartbeatGroups;

/** What the sweep needs of a socket (`ws`'s WebSocket; tests hand in fakes). */
export type SweptSocket = {
  ping(): void;
  terminate(): void;
  on(event: 'pong', listener: (this: SweptSocket) => void): unknown;
};

/**
 * One heartbeat for all sockets of an instance instead of a timer and closures per socket (issue
 * 15: lean sockets). Every heartbeatMs / heartbeatGroups it handles one of the groups: closes the sockets that
 * did not answer the last ping, pings the others and reports their members (presence, in one
 * batch). A socket joins a random group, so heartbeats are jittered and never in phase.
 */
export class HeartbeatSweep<S extends SweptSocket = SweptSocket> {
  private readonly groups: Set<S>[] = Array.from({ length: groupCount }, () => new Set<S>());
  private readonly memberOf = new WeakMap<S, number>();
  /** Pinged and not answered yet. */
  private readonly awaiting = new WeakSet<SweptSocket>();
  /** One pong listener shared by every socket. */
  private readonly answered: (this: SweptSocket) => void;
  private next = 0;
  private timer: ReturnType<typeof setInterval> | undefined;

  constructor(
    private readonly onAlive: (memberIds: number[]) => void,
    private readonly periodMs = heartbeatMs,
    private readonly random: () => number = Math.random,
  ) {
    const awaiting = this.awaiting;
    this.answered = function answered(this: SweptSocket) {
      awaiting.delete(this);
    };
  }

  add(socket: S, memberId: number): void {
    this.groups[Math.floor(this.random() * groupCount) % groupCount]!.add(socket);
    this.memberOf.set(socket, memberId);
    socket.on('pong', this.answered);
    this.timer ??= setInterval(() => this.tick(), this.periodMs / groupCount);
    this.timer.unref?.();
  }

  remove(socket: S): void {
    for (const group of this.groups) if (group.delete(socket)) break;
  }

  get size(): number {
    return this.groups.reduce((total, group) => total + group.size, 0);
  }

  /** One group's turn (the timer calls it; exposed for tests). */
  tick(): void {
    const group = this.groups[this.next]!;
    this.next = (this.next + 1) % groupCount;
    const alive = new Set<number>();
    for (const socket of group) {
      if (this.awaiting.has(socket)) {
        group.delete(socket);
        socket.terminate();
        continue;
      }
      this.awaiting.add(socket);
      socket.ping();
      const member = this.memberOf.get(socket);
      if (member !== undefined) alive.add(member);
    }
    if (alive.size > 0) this.onAlive([...alive]);
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }
}
