import http from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import autocannon from 'autocannon';

export type LoadResult = { rps: number; p50: number; p99: number; errors: number; requests: number };

/**
 * Closed-loop HTTP load with autocannon: `connections` clients send requests back to back for
 * `seconds`. Errors are connection errors, timeouts and answers other than 2xx.
 */
export async function load(options: {
  url: string;
  seconds: number;
  connections: number;
  headers?: Record<string, string>;
}): Promise<LoadResult> {
  const result = await autocannon({
    url: options.url,
    duration: options.seconds,
    connections: options.connections,
    headers: options.headers ?? {},
    timeout: 10,
  });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx,
    requests: result.requests.total,
  };
}

/** Sorted-sample percentile (nearest rank). */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

/**
 * Latencies of `count` requests sent one after the other (no concurrency): a single user's view,
 * timed from sending to the last byte decoded. Asked and decoded as a browser does (gzip or
 * Brotli), over one kept-alive `node:http` connection: `fetch` (undici) added ~1.5–2 ms to each
 * 9 KB search answer on 2 cores, its own stream and decoding work on the cores the server shares
 * (bench/README.md).
 */
export function sequential(url: string, count: number, headers: Record<string, string> = {}) {
  let left = count - 1;
  return sequentialWhile(url, () => left-- > 0, headers);
}

/** As `sequential`, one request after another while `more()` says so (at least one). */
export async function sequentialWhile(
  url: string,
  more: () => boolean,
  headers: Record<string, string> = {},
) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const timings: number[] = [];
  let errors = 0;
  try {
    do {
      const started = performance.now();
      const status = await decodedGet(url, { 'accept-encoding': 'gzip, br', ...headers }, agent);
      timings.push(performance.now() - started);
      if (status < 200 || status >= 300) errors++;
    } while (more());
  } finally {
    agent.destroy();
  }
  timings.sort((a, b) => a - b);
  return {
    p50: percentile(timings, 50),
    p95: percentile(timings, 95),
    p99: percentile(timings, 99),
    errors,
    requests: timings.length,
  };
}

/** A GET whose answer is read whole and decoded (gzip, Brotli); resolves to its status. */
function decodedGet(url: string, headers: Record<string, string>, agent: http.Agent): Promise<number> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers, agent }, (answer) => {
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('error', reject);
        answer.on('end', () => {
          const body = Buffer.concat(chunks);
          const encoding = answer.headers['content-encoding'];
          if (encoding === 'gzip') gunzipSync(body);
          else if (encoding === 'br') brotliDecompressSync(body);
          resolve(answer.statusCode ?? 0);
        });
      })
      .on('error', reject);
  });
}

/**
 * The open-model clients' HTTP (live delivery, capacity): node:http over kept-alive connections,
 * answers read and dropped as they come (not decompressed). `fetch` cost the load generator about a
 * fifth of a core at 2,000 capacity users, on the same two cores as the servers it measures.
 */
const keptAlive = new http.Agent({ keepAlive: true });

export function request(
  port: number,
  options: {
    method?: 'GET' | 'POST';
    path: string;
    headers?: Record<string, string>;
    body?: string;
    /** A client's own connections (the capacity model's users); the shared kept-alive pool otherwise. */
    agent?: http.Agent;
  },
): Promise<number> {
  return new Promise((resolve, reject) => {
    const outgoing = http.request(
      {
        host: '127.0.0.1',
        port,
        method: options.method ?? 'GET',
        path: options.path,
        headers: options.headers,
        agent: options.agent ?? keptAlive,
      },
      (answer) => {
        answer.on('error', reject);
        answer.on('end', () => resolve(answer.statusCode ?? 0));
        answer.resume();
      },
    );
    outgoing.on('error', reject);
    outgoing.end(options.body);
  });
}
