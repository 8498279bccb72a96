import type { FastifyInstance } from 'fastify';
import type { Screener } from '../../server/modules/photos/screener.ts';
import type { ScreeningScores } from '../../server/modules/photos/screening-rules.ts';

/** One adult face, a neutral photo: what the stand-in says unless a test says otherwise. */
export const neutralFace: ScreeningScores = {
  nudity: { Neutral: 0.97, Drawing: 0.01, Sexy: 0.01, Porn: 0.005, Hentai: 0.005 },
  faces: [{ score: 0.9, age: 31 }],
};

/**
 * A screener at the models' boundary: answers what the test sets (`next`), or fails when `failure`
 * is set. The tests of the real models are in server/modules/photos/screening-models.test.ts.
 */
export function fakeScreener(scores: ScreeningScores = neutralFace) {
  const screener = {
    next: scores,
    failure: undefined as Error | undefined,
    calls: 0,
    async screen(): Promise<ScreeningScores> {
      screener.calls++;
      if (screener.failure) throw screener.failure;
      return screener.next;
    },
    async close() {},
  } satisfies Screener & Record<string, unknown>;
  return screener;
}

/** Runs the screening jobs that are due, as the job runner would after the uploads answered. */
export async function screenPhotos(app: FastifyInstance): Promise<void> {
  await app.deps.jobs.runDue(['photos.screen']);
}
