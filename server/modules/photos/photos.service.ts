import { photoLimits } from '#contract/profiles.ts';
import type { Database, Transaction } from '#server/db/client.ts';
import type { UserRow } from '#server/db/schema/members.ts';
import type { PhotoRow } from '#server/db/schema/photos.ts';
import type { Clock } from '#server/lib/clock.ts';
import { AppError, NotFoundError, ValidationFailedError } from '#server/lib/errors.ts';
import { type MediaStorage, newMediaKey, privateKeyPrefix, publicKeyPrefix } from '#server/lib/storage.ts';
import { PremiumRequiredError } from '#server/modules/profiles/profiles.errors.ts';
import { findProfileByUserId } from '#server/modules/profiles/profiles.service.ts';
import { type ProcessedPhoto, processPhoto, UnsupportedImageError } from './photo-processing.ts';
import * as repo from './photos.repository.ts';
import type { ScreeningService } from './screening.service.ts';

/**
 * Stores the variants of a processed photo under fresh random keys: the originals (main size and
 * thumbnail) as private objects, the blurred copies as public ones. No key tells the member, the
 * photo or another variant.
 */
export async function storePhotoVariants(
  storage: MediaStorage,
  processed: ProcessedPhoto,
): Promise<repo.PhotoKeys> {
  const keys: repo.PhotoKeys = {
    mainKey: newMediaKey('private'),
    thumbKey: newMediaKey('private'),
    blurredKey: newMediaKey('public'),
    blurredThumbKey: newMediaKey('public'),
  };
  await Promise.all([
    storage.put(keys.mainKey, processed.main),
    storage.put(keys.thumbKey, processed.thumb),
    storage.put(keys.blurredKey, processed.blurred),
    storage.put(keys.blurredThumbKey, processed.blurredThumb),
  ]);
  return keys;
}

/**
 * Deletes one photo of a profile inside the caller's transaction and closes the gap: under the
 * profile's row lock (held until the transaction ends, so removals and reorders of one profile pass
 * one at a time) the photo's row goes and the others keep their order, numbered from 0 (the first is
 * the main photo). The files stay: the caller removes them after the commit.
 */
export async function deletePhotoClosingRanks(
  tx: Transaction,
  profileId: number,
  photoId: number,
): Promise<void> {
  await repo.lockProfile(tx, profileId);
  await repo.deletePhoto(tx, photoId);
  const rest = await repo.orderedPhotos(tx, profileId);
  for (const [position, row] of rest.entries()) {
    if (row.position !== position) await repo.setPosition(tx, row.id, position);
  }
}

/**
 * The no-face rule holds for the main photo whichever way a photo becomes main: one screened as a
 * later photo with no face, and no moderator's look yet, is held when it moves first.
 */
async function holdFacelessMain(tx: Transaction, main: PhotoRow): Promise<void> {
  if (main.status !== 'approved' || main.moderation !== 'pending') return;
  if (main.screening && !main.screening.error && main.screening.faces === 0) {
    await repo.holdPhoto(tx, main.id, 'no_face');
  }
}

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
    private readonly screening: ScreeningService,
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
    let processed: ProcessedPhoto;
    try {
      processed = await processPhoto(data);
    } catch (error) {
      if (error instanceof UnsupportedImageError) throw new UnsupportedImageAppError();
      throw error;
    }
    const keys = await storePhotoVariants(this.storage, processed);
    try {
      return await this.db.transaction(async (tx) => {
        await repo.lockProfile(tx, profileId);
        const existing = await repo.countPhotos(tx, profileId);
        if (existing >= limit) this.limitReached(member);
        // Seen by its owner and staff only until screened (after this answer, on the job runner).
        const row = await repo.insertPhoto(tx, {
          profileId,
          position: existing,
          ...keys,
          width: processed.width,
          height: processed.height,
          createdAt: this.clock.now(),
          status: 'screening',
        });
        await this.screening.enqueue(tx, row.id);
        return row;
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
    await this.db.transaction((tx) => deletePhotoClosingRanks(tx, profileId, photoId));
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
      await holdFacelessMain(tx, chosen);
    });
  }

  /** Puts the own photos in the given order (every one of them, once); the first becomes the main photo. */
  async reorder(member: UserRow, photoIds: number[]): Promise<void> {
    const profileId = await this.profileId(member);
    await this.db.transaction(async (tx) => {
      await repo.lockProfile(tx, profileId);
      const rows = await repo.orderedPhotos(tx, profileId);
      const byId = new Map(rows.map((row) => [row.id, row]));
      if (photoIds.length !== rows.length || new Set(photoIds).size !== rows.length) {
        throw new ValidationFailedError({ photos: 'invalid' });
      }
      const order = photoIds.map((id) => byId.get(id));
      if (order.some((row) => row === undefined)) throw new ValidationFailedError({ photos: 'invalid' });
      for (const [position, row] of order.entries()) {
        if (row && row.position !== position) await repo.setPosition(tx, row.id, position);
      }
      if (order[0]) await holdFacelessMain(tx, order[0]);
    });
  }

  /**
   * Moves photos stored before originals became private (`photos/<profile>/<name>.webp`, the blurred
   * copy at `<name>-blur.webp`) to the current layout, once, at start: each variant is copied to a
   * key derived from its old key under the media secret and the old object removed; then, in one
   * transaction per batch, the photo rows and the chat messages that carry those photos point to the
   * new keys. Derived keys make it idempotent and safe to repeat after a crash at any step, and two
   * instances starting at once do the same work with the same result. Returns the photos moved.
   */
  async moveLegacyMedia(batchSize = 200): Promise<number> {
    let moved = 0;
    for (;;) {
      const rows = await repo.photosWithLegacyKeys(this.db, batchSize);
      if (rows.length === 0) return moved;
      const moves: repo.PhotoKeyMove[] = [];
      // A few photos at a time (four objects each): quick on S3 without flooding it.
      for (let start = 0; start < rows.length; start += 8) {
        const chunk = rows.slice(start, start + 8);
        moves.push(...(await Promise.all(chunk.map((row) => this.moveLegacyPhoto(row)))));
      }
      await repo.applyPhotoKeyMoves(this.db, moves);
      moved += rows.length;
    }
  }

  private async moveLegacyPhoto(row: repo.PhotoKeys & { id: number }): Promise<repo.PhotoKeyMove> {
    const [mainKey, thumbKey, blurredKey, blurredThumbKey] = await Promise.all([
      this.moveLegacy(row.mainKey, 'private'),
      this.moveLegacy(row.thumbKey, 'private'),
      this.moveLegacy(row.blurredKey, 'public'),
      this.moveLegacy(row.blurredThumbKey, 'public'),
    ]);
    return { id: row.id, from: row, to: { mainKey, thumbKey, blurredKey, blurredThumbKey } };
  }

  private legacyTarget(key: string, visibility: 'private' | 'public'): string {
    const prefix = visibility === 'private' ? privateKeyPrefix : publicKeyPrefix;
    if (key.startsWith(prefix)) return key;
    return `${prefix}${this.storage.signer.derivedName(`legacy:${visibility}:${key}`)}.webp`;
  }

  private async moveLegacy(key: string, visibility: 'private' | 'public'): Promise<string> {
    const target = this.legacyTarget(key, visibility);
    if (target === key) return key;
    const data = await this.storage.get(key);
    // No object under the old key: moved by an earlier, interrupted run (or lost before); the row
    // still gets the target key.
    if (data) {
      await this.storage.put(target, data);
      await this.storage.remove(key);
    }
    return target;
  }
}
