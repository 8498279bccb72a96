import { parentPort, workerData } from 'node:worker_threads';
import type { ScreenerReply, ScreenerRequest } from './screener.ts';
import { type ModelFolders, screenImage } from './screening-models.ts';

/**
 * The thread side of photos/screener.ts: screens one photo at a time with both models, loaded at the
 * first photo. A failure (a model that does not load, an image the models refuse) is answered as
 * such, for the photo to wait for a moderator.
 */
const port = parentPort;
if (!port) throw new Error('screener.worker runs as a worker thread');
const { folders }: { folders: ModelFolders } = workerData;

let queue: Promise<void> = Promise.resolve();

port.on('message', (request: ScreenerRequest) => {
  queue = queue.then(async () => {
    let reply: ScreenerReply;
    try {
      reply = { id: request.id, ok: true, scores: await screenImage(Buffer.from(request.image), folders) };
    } catch (error) {
      // Not swallowed: the main thread holds the photo (check_failed) and counts the failure.
      reply = { id: request.id, ok: false, error: error instanceof Error ? error.message : String(error) };
    }
    port.postMessage(reply);
  });
});
