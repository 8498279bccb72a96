import { z } from 'zod';
import type { Database, Executor } from '#server/db/client.ts';
import type { PhotoHoldReason, PhotoRow, PhotoScreening } from '#server/db/schema/photos.ts';
import type { PhotoScreeningSettings } from '#server/db/schema/sites.ts';
import type { ReportCaught } from '#server/lib/best-effort.ts';
import type { Clock } from '#server/lib/clock.ts';
import type { MediaStorage } from '#server/lib/storage.ts';
import { defineJob, type JobRunner } from '#server/modules/jobs/job-runner.ts';
import * as repo from './photos.repository.ts';
import type { Screener } from './screener.ts';
import { holdReason, type ScreeningScores, screeningRecord, screeningSettings } from './screening-rules.ts';

/** One photo to screen; its key is the photo's, so a photo is screened once however often it is asked. */
export const photoScreen = defineJob('photos.screen', z.object({ photo: z.number().int() }));

/** The counters screening feeds (server/lib/metrics.ts). */
export type ScreeningMetrics = {
  photoScreeningFailures: { inc(): void };
  photoScreenings: { inc(labels: { outcome: string }): void };
};

/**
 * Photo screening (docs/decisions/045): after an upload has answered, the job runner's
 * `photos.screen` queue hands the photo's main size to the models' thread and applies the site's
 * rules. A member's photo is then approved (others see it) or held for a moderator with its reason; a
 * check that cannot run holds it too (check_failed) and raises the alert counter, so nothing unchecked
 * goes out. A fictional profile's photo (added by staff) gets its scores stored and stays visible.
 */
export class ScreeningService {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly storage: MediaStorage,
    jobs: JobRunner,
    private readonly screener: Screener,
    private readonly metrics: ScreeningMetrics,
    private readonly reportCaught: ReportCaught,
  ) {
    jobs.handle(photoScreen, {
      // The run itself never fails (a failed check holds the photo); retries only cover the database.
      maxAttempts: 5,
      leaseMs: 2 * 60_000,
      run: ({ photo }) => this.screen(photo),
    });
  }

  /** Queues a photo for screening, inside the caller's transaction when it goes with the upload. */
  enqueue(db: Executor, photoId: number): Promise<boolean> {
    return photoScreen.enqueue(db, `photo:${photoId}`, { photo: photoId }, { at: this.clock.now() });
  }

  /** Screens one photo and records the outcome; a photo gone meanwhile is nothing to do. */
  async screen(photoId: number): Promise<void> {
    const found = await repo.photoForScreening(this.db, photoId);
    if (!found) return;
    let scores: ScreeningScores;
    try {
      const data = await this.storage.get(found.photo.mainKey);
      if (!data) throw new Error('the photo file is missing');
      scores = await this.screener.screen(data);
    } catch (error) {
      this.reportCaught('photos.screening', error, 'error');
      this.metrics.photoScreeningFailures.inc();
      this.metrics.photoScreenings.inc({ outcome: 'check_failed' });
      await repo.recordScreening(this.db, photoId, {
        status: found.fictional ? 'approved' : 'held',
        holdReason: found.fictional ? null : 'check_failed',
        screening: {
          nudity: {},
          faces: 0,
          min_age_estimate: null,
          error: (error instanceof Error ? error.message : String(error)).slice(0, 300),
        },
        screenedAt: this.clock.now(),
      });
      return;
    }
    const reason = holdReason(scores, screeningSettings(found.settings), {
      main: found.photo.position === 0,
    });
    this.metrics.photoScreenings.inc({ outcome: reason ?? 'approved' });
    const result: Pick<PhotoRow, 'status' | 'holdReason' | 'screening' | 'screenedAt'> = {
      status: reason && !found.fictional ? 'held' : 'approved',
      holdReason: found.fictional ? null : reason,
      screening: screeningRecord(scores),
      screenedAt: this.clock.now(),
    };
    await repo.recordScreening(this.db, photoId, result);
  }

  /**
   * Screens a chat photo before it is sent (decision 060): why it must wait for a moderator, or null
   * to send it now. A check that cannot run holds it (check_failed), as for a profile photo.
   */
  async check(
    image: Buffer,
    settings: PhotoScreeningSettings,
  ): Promise<{ reason: PhotoHoldReason | null; screening: PhotoScreening }> {
    try {
      const scores = await this.screener.screen(image);
      const reason = holdReason(scores, screeningSettings(settings), { main: false });
      this.metrics.photoScreenings.inc({ outcome: reason ?? 'approved' });
      return { reason, screening: screeningRecord(scores) };
    } catch (error) {
      this.reportCaught('photos.screening', error, 'error');
      this.metrics.photoScreeningFailures.inc();
      this.metrics.photoScreenings.inc({ outcome: 'check_failed' });
      const message = (error instanceof Error ? error.message : String(error)).slice(0, 300);
      return {
        reason: 'check_failed',
        screening: { nudity: {}, faces: 0, min_age_estimate: null, error: message },
      };
    }
  }

  close(): Promise<void> {
    return this.screener.close();
  }
}
