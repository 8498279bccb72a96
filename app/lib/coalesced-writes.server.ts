import { Transform } from 'node:stream';

/**
 * One chunk for everything written in one turn of the event loop (decision 033).
 *
 * React writes a page in pieces of at most 4 KB, all of the shell at once: a logged-in `/members`
 * (52 KB) left the renderer as 17 chunks. Each chunk then crossed the stream that React Router's
 * Response wraps (a web ReadableStream, turned back into a Node stream for Fastify) and the gzip or
 * Brotli stream, one zlib call on the thread pool apiece: compressing such a page cost ~7 ms of
 * CPU, ~2 ms in one piece (decision 033). Gathered here, the shell leaves as one chunk, and a Suspense
 * boundary that resolves later as one more, as soon as React has written it: streaming is kept,
 * only the pieces of one write are joined. `onEnd` runs when the writer has ended, after the last
 * chunk left.
 */
export function coalescedWrites(onEnd?: () => void): Transform {
  let pieces: Buffer[] = [];
  let scheduled = false;
  const release = () => {
    scheduled = false;
    if (pieces.length === 0) return;
    const chunk = Buffer.concat(pieces);
    pieces = [];
    stream.push(chunk);
  };
  const stream = new Transform({
    transform(chunk: Buffer | string, _encoding, callback) {
      pieces.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
      if (!scheduled) {
        scheduled = true;
        setImmediate(release);
      }
      callback();
    },
    flush(callback) {
      release();
      onEnd?.();
      callback();
    },
  });
  return stream;
}
