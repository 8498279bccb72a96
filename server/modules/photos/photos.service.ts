import { randomBytes } from 'node:crypto';
import { photoLimits } from '#contract/profiles.ts';
import type { Database } from '#server/db/client.ts';
import type { UserRow } from '#server/db/schema/members.ts';
import type { Clock } from '#server/lib/clock.ts';
import { AppError, NotFoundError } from '#server/lib/errors.ts';
import type { MediaStorage } from '#server/lib/storage.ts';
import { PremiumRequiredError } from '#server/modules/profiles/profiles.errors.ts';
import { findProfileByUserId } from '#server/modules/profiles/profiles.repository.ts';
import { processPhoto, UnsupportedImageError } from './photo-processing.ts';
import * as repo from './photos.repository.ts';

export class UnsupportedImageAppError extends AppError {
  override name = 'UnsupportedImageAppError';
  constructor() {
    super(422, 'unsupported_image');
  }
}

export class PhotoLimitError extends AppError {
  override name = 'PhotoLimitError';
  constructor(limit: number) {
    super(422, 'photo_limit', { limit });
  }
}

export class PhotosService {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly storage: MediaStorage,
  ) {}

  private async profileId(member: UserRow): Promise<number> {
    const profile = await findProfileByUserId(this.db, member.id);
    if (!profile) throw new NotFoundError();
    return profile.id;
  }

  /**
   * Re-encodes an upload (EXIF and GPS gone), stores its sizes and blurred copies and adds it last.
   * Free members may have 3 photos, premium members 25.
   */
  async upload(member: UserRow, data: Buffer) {
    const profileId = await this.profileId(member);
    const limit = member.paidUser ? photoLimits.premium : photoLimits.free;
    if ((await repo.countPhotos(this.db, profileId)) >= limit) this.limitReached(member);
    let processed: Awaited<ReturnType<typeof processPhoto>>;
    try {
      processed = await processPhoto(data);
    } catch (error) {
      if (error instanceof UnsupportedImageError) throw new UnsupportedImageAppError();
      throw error;
    }
    const base = `photos/${profileId}/${randomBytes(9).toString('base64url')}`;
    const keys = {
      mainKey: `${base}.webp`,
      thumbKey: `${base}-thumb.webp`,
      blurredKey: `${base}-blur.webp`,
      blurredThumbKey: `${base}-blur-thumb.webp`,
    };
    await Promise.all([
      this.storage.put(keys.mainKey, processed.main),
      this.storage.put(keys.thumbKey, processed.thumb),
      this.storage.put(keys.blurredKey, processed.blurred),
      this.storage.put(keys.blurredThumbKey, processed.blurredThumb),
    ]);
    try {
      return await this.db.transaction(async (tx) => {
        await repo.lockProfile(tx, profileId);
        const existing = await repo.countPhotos(tx, profileId);
        if (existing >= limit) this.limitReached(member);
        return repo.insertPhoto(tx, {
          profileId,
          position: existing,
          ...keys,
          width: processed.width,
          height: processed.height,
          createdAt: this.clock.now(),
        });
      });
    } catch (error) {
      await Promise.all(Object.values(keys).map((key) => this.storage.remove(key)));
      throw error;
    }
  }

  private limitReached(member: UserRow): never {
    if (!member.paidUser) throw new PremiumRequiredError();
    throw new PhotoLimitError(photoLimits.premium);
  }

  async remove(member: UserRow, photoId: number): Promise<void> {
    const profileId = await this.profileId(member);
    const photo = await repo.findOwnPhoto(this.db, profileId, photoId);
    if (!photo) throw new NotFoundError();
    await this.db.transaction(async (tx) => {
      await repo.lockProfile(tx, profileId);
      await repo.deletePhoto(tx, photoId);
      const rest = await repo.orderedPhotos(tx, profileId);
      for (const [position, row] of rest.entries()) {
        if (row.position !== position) await repo.setPosition(tx, row.id, position);
      }
    });
    await Promise.all(
      [photo.mainKey, photo.thumbKey, photo.blurredKey, photo.blurredThumbKey].map((key) =>
        this.storage.remove(key),
      ),
    );
  }

  /** Makes a photo the main one (first); the others keep their order behind it. */
  async makeMain(member: UserRow, photoId: number): Promise<void> {
    const profileId = await this.profileId(member);
    await this.db.transaction(async (tx) => {
      await repo.lockProfile(tx, profileId);
      const rows = await repo.orderedPhotos(tx, profileId);
      const chosen = rows.find((row) => row.id === photoId);
      if (!chosen) throw new NotFoundError();
      const order = [chosen, ...rows.filter((row) => row.id !== photoId)];
      for (const [position, row] of order.entries()) {
        if (row.position !== position) await repo.setPosition(tx, row.id, position);
      }
    });
  }
}
