import { describe, expect, it, vi } from 'vitest';
import { coalescedWrites } from './coalesced-writes.server.ts';

function chunksOf(stream: ReturnType<typeof coalescedWrites>): string[] {
  const chunks: string[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk.toString('utf8')));
  return chunks;
}

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('coalesced writes', () => {
  it('joins what is written in one turn of the event loop into one chunk', async () => {
    const stream = coalescedWrites();
    const chunks = chunksOf(stream);
    for (const piece of ['<html>', '<head></head>', Buffer.from('<body>')]) stream.write(piece);
    expect(chunks).toEqual([]);
    await nextTurn();
    expect(chunks).toEqual(['<html><head></head><body>']);
  });

  it('keeps streaming: a later write leaves as a chunk of its own, as soon as it is written', async () => {
    const stream = coalescedWrites();
    const chunks = chunksOf(stream);
    stream.write('shell');
    await nextTurn();
    stream.write('<template>late</template>');
    stream.write('<script>reveal()</script>');
    await nextTurn();
    expect(chunks).toEqual(['shell', '<template>late</template><script>reveal()</script>']);
  });

  it('hands on what is left when the writer ends, then tells once', async () => {
    const onEnd = vi.fn();
    const stream = coalescedWrites(onEnd);
    const chunks = chunksOf(stream);
    const ended = new Promise((resolve) => stream.on('end', resolve));
    stream.write('last ');
    stream.end('words');
    await ended;
    await nextTurn();
    expect(chunks.join('')).toBe('last words');
    expect(chunks).toHaveLength(1);
    expect(onEnd).toHaveBeenCalledTimes(1);
  });
});
