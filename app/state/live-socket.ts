import { loadSchemasInSteps } from '#app/lib/schemas-in-steps.ts';
import type { ConnectionStatus, LiveClientFrame, LiveEvent } from '#contract/live.ts';
import { liveCloseCodes } from '#contract/live-close-codes.ts';

export type { ConnectionStatus, LiveEvent } from '#contract/live.ts';

type Listener = (event: LiveEvent) => void;
type FrameParser = (text: string) => LiveEvent | null;

/**
 * The frames' parser, and with it zod and the contract's schemas, loads when the first socket opens:
 * visitors never open one, and a member's page paints before it is needed.
 */
let frameParser: Promise<FrameParser> | undefined;
function loadFrameParser(): Promise<FrameParser> {
  frameParser ??= loadSchemasInSteps()
    .then(() => import('#contract/live.ts'))
    .then((module) => module.parseLiveEvent);
  return frameParser;
}

/** 1 s, 2 s, 4 s … at most 30 s between reconnects. */
export function reconnectDelayMs(attempt: number): number {
  return Math.min(1000 * 2 ** attempt, 30_000);
}

/**
 * One WebSocket per tab, reconnecting with backoff. After a reconnect the listeners get `ready`
 * again, which is their cue to fetch what they missed (nothing is lost across a reconnect).
 */
export class LiveSocket {
  private socket: WebSocket | null = null;
  private listeners = new Set<Listener>();
  private statusListeners = new Set<(status: ConnectionStatus) => void>();
  private attempt = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private stopped = false;
  status: ConnectionStatus = 'connecting';

  constructor(private readonly url: string) {}

  start(): void {
    this.stopped = false;
    // Said at once: the socket opens only once the frames' parser has loaded, and a send in the
    // meantime must wait for it, not fail as if the member were offline.
    this.setStatus('connecting');
    this.open();
  }

  private setStatus(status: ConnectionStatus) {
    this.status = status;
    for (const listener of this.statusListeners) listener(status);
  }

  private open() {
    loadFrameParser().then(
      (parse) => {
        // Stopped meanwhile, or another start() already connected.
        if (!this.stopped && !this.socket) this.connect(parse);
      },
      () => {
        // The parser's chunk could not be had (offline, or a deploy replaced it): try again later.
        frameParser = undefined;
        if (!this.stopped) this.reconnectLater();
      },
    );
  }

  private reconnectLater() {
    this.setStatus('reconnecting');
    this.timer = setTimeout(() => this.open(), reconnectDelayMs(this.attempt++));
  }

  private connect(parseLiveEvent: FrameParser) {
    const socket = new WebSocket(this.url);
    this.socket = socket;
    socket.onmessage = (message) => {
      // One definition of the frames (contract/live.ts), checked here: anything else is dropped.
      const event = parseLiveEvent(String(message.data));
      if (!event) return;
      if (event.type === 'ready') {
        this.attempt = 0;
        this.setStatus('ready');
      }
      for (const listener of this.listeners) listener(event);
    };
    socket.onclose = (event) => {
      this.socket = null;
      // 4401: not logged in (any more); 4403: wrong origin. Retrying would not help.
      if (
        this.stopped ||
        event.code === liveCloseCodes.unauthenticated ||
        event.code === liveCloseCodes.forbidden
      ) {
        this.setStatus('offline');
        return;
      }
      this.reconnectLater();
    };
  }

  send(frame: LiveClientFrame): void {
    if (this.socket?.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify(frame));
  }

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  onStatus(listener: (status: ConnectionStatus) => void): () => void {
    this.statusListeners.add(listener);
    return () => this.statusListeners.delete(listener);
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.socket?.close();
    this.socket = null;
  }
}
