import { and, asc, eq, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Executor } from './client.ts';
import { photos } from './schema/photos.ts';

/**
 * SQL fragments that several areas' repositories build their statements from: query-building
 * infrastructure, no area's reads of its own.
 */

/**
 * A profile's main photo (the first by position, then id) as a lateral subquery, for lists that show
 * a photo per row in the same statement: `.leftJoinLateral(main.subquery, sql\`true\`)` and select
 * `mainPhoto: main.fields`. For others (the default) it is there only once screened and approved: a
 * first photo under screening or held gives no photo rather than the next one, which may be a premium
 * photo. The owner's own views (`forOwner`) get it whatever its status.
 */
export function mainPhotoLateral(db: Executor, profileId: AnyPgColumn, options: { forOwner?: boolean } = {}) {
  const subquery = db
    .select()
    .from(photos)
    .where(
      options.forOwner
        ? eq(photos.profileId, profileId)
        : and(
            eq(photos.profileId, profileId),
            eq(photos.status, 'approved'),
            sql`not exists (select 1 from ${photos} earlier where earlier.profile_id = ${photos.profileId} and earlier.status <> 'approved' and (earlier.position, earlier.id) < (${photos.position}, ${photos.id}))`,
          ),
    )
    .orderBy(asc(photos.position), asc(photos.id))
    .limit(1)
    .as('main_photo');
  return {
    subquery,
    fields: {
      id: subquery.id,
      profileId: subquery.profileId,
      position: subquery.position,
      mainKey: subquery.mainKey,
      thumbKey: subquery.thumbKey,
      blurredKey: subquery.blurredKey,
      blurredThumbKey: subquery.blurredThumbKey,
      width: subquery.width,
      height: subquery.height,
      createdAt: subquery.createdAt,
      moderation: subquery.moderation,
      status: subquery.status,
      holdReason: subquery.holdReason,
      screening: subquery.screening,
      screenedAt: subquery.screenedAt,
    },
  };
}
