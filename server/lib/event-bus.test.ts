import { createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createRedisBus } from './event-bus.ts';

/** The commands (arrays of bulk strings) in a RESP buffer, and what is left of it. */
function parseCommands(buffer: string): { commands: string[][]; rest: string } {
  const commands: string[][] = [];
  let rest = buffer;
  for (;;) {
    const match = /^\*(\d+)\r\n/.exec(rest);
    if (!match) return { commands, rest };
    let offset = match[0].length;
    const parts: string[] = [];
    for (let i = 0; i < Number(match[1]); i++) {
      const header = /^\$(\d+)\r\n/.exec(rest.slice(offset));
      if (!header) return { commands, rest };
      const start = offset + header[0].length;
      const end = start + Number(header[1]);
      if (rest.length < end + 2) return { commands, rest };
      parts.push(rest.slice(start, end));
      offset = end + 2;
    }
    commands.push(parts);
    rest = rest.slice(offset);
  }
}

const bulk = (text: string) => `$${Buffer.byteLength(text)}\r\n${text}\r\n`;

/**
 * A Redis that refuses the first SUBSCRIBE of a channel (as Redis does under memory pressure or an
 * ACL change) and accepts the next; it can then push a message to the subscribed connection.
 */
function flakyRedis() {
  const subscribed = new Map<string, Socket>();
  const attempts = new Map<string, number>();
  /** The channels of the PUBLISH commands, one list per chunk read. */
  const publishedTogether: string[][] = [];
  const server: Server = createServer((socket) => {
    let buffer = '';
    socket.on('data', (data) => {
      const parsed = parseCommands(buffer + data.toString('utf8'));
      buffer = parsed.rest;
      const published = parsed.commands.filter(([name]) => name?.toUpperCase() === 'PUBLISH');
      if (published.length > 0) publishedTogether.push(published.map(([, channel]) => channel!));
      for (const [name, ...args] of parsed.commands) {
        const command = name!.toUpperCase();
        if (command === 'INFO') socket.write(bulk('# Server\r\nloading:0\r\n'));
        else if (command === 'SUBSCRIBE') {
          for (const channel of args) {
            const attempt = (attempts.get(channel) ?? 0) + 1;
            attempts.set(channel, attempt);
            if (attempt === 1) socket.write('-ERR OOM command not allowed\r\n');
            else {
              subscribed.set(channel, socket);
              socket.write(`*3\r\n${bulk('subscribe')}${bulk(channel)}:1\r\n`);
            }
          }
        } else if (command === 'PUBLISH') socket.write(':0\r\n');
        else if (command === 'QUIT') {
          socket.write('+OK\r\n');
          socket.end();
        } else socket.write('+OK\r\n');
      }
    });
    socket.on('error', () => undefined);
  });
  return {
    server,
    attempts,
    publishedTogether,
    push(channel: string, payload: unknown) {
      subscribed
        .get(channel)
        ?.write(`*3\r\n${bulk('message')}${bulk(channel)}${bulk(JSON.stringify(payload))}`);
    },
    subscribedTo: (channel: string) => subscribed.has(channel),
  };
}

describe('the Redis event bus', () => {
  const redis = flakyRedis();
  let url: string;
  beforeAll(async () => {
    await new Promise<void>((resolve) => redis.server.listen(0, '127.0.0.1', resolve));
    const address = redis.server.address();
    if (!address || typeof address === 'string') throw new Error('no port');
    url = `redis://127.0.0.1:${address.port}`;
  });
  afterAll(() => new Promise<void>((resolve) => redis.server.close(() => resolve())));

  it('logs and counts a failed subscribe and retries it, so the socket behind it is not deaf', async () => {
    const warnings: { details: object; message: string }[] = [];
    let failures = 0;
    let warned = () => {};
    const refused = new Promise<void>((resolve) => {
      warned = resolve;
    });
    const bus = await createRedisBus(
      url,
      'p:',
      {
        warn: (details, message) => {
          warnings.push({ details, message });
          warned();
        },
      },
      () => failures++,
    );
    // The retry waits out its backoff on a timer: fake, so the test need not wait half a second.
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    try {
      const received: unknown[] = [];
      let delivered = () => {};
      const arrived = new Promise<void>((resolve) => {
        delivered = resolve;
      });
      bus.subscribe('member.1', (payload) => {
        received.push(payload);
        delivered();
      });
      await refused;
      expect(failures).toBe(1);
      expect(warnings).toEqual([
        expect.objectContaining({
          message: 'event bus: subscribe failed, retrying',
          details: expect.objectContaining({ channel: 'member.1', attempt: 0, retryInMs: 500 }),
        }),
      ]);
      expect(redis.attempts.get('p:member.1')).toBe(1);
      await vi.advanceTimersByTimeAsync(500);
      await vi.waitFor(() => expect(redis.subscribedTo('p:member.1')).toBe(true));
      expect(redis.attempts.get('p:member.1')).toBe(2);
      expect(failures).toBe(1);
      redis.push('p:member.1', { type: 'credits', credits: 3 });
      await arrived;
      expect(received).toEqual([{ type: 'credits', credits: 3 }]);
    } finally {
      vi.useRealTimers();
      await bus.close();
    }
  });

  it('sends the events published together to Redis in the order they were published', async () => {
    const bus = await createRedisBus(url, 'q:');
    try {
      // A send's events: the list dropped, the message to the receiver, the sender's copy, the credits.
      await Promise.all([
        bus.publish('chat-list.changed', { userId: 2 }),
        bus.publish('member.2', { type: 'message' }),
        bus.publish('member.1', { type: 'message' }),
        bus.publish('member.1', { type: 'credits', credits: 9 }),
      ]);
      expect(redis.publishedTogether.flat().slice(-4)).toEqual([
        'q:chat-list.changed',
        'q:member.2',
        'q:member.1',
        'q:member.1',
      ]);
    } finally {
      await bus.close();
    }
  });
});
