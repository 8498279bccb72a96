import { asc, eq } from 'drizzle-orm';
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
 * `mainPhoto: main.fields`.
 */
export function mainPhotoLateral(db: Executor, profileId: AnyPgColumn) {
  const subquery = db
    .select()
    .from(photos)
    .where(eq(photos.profileId, profileId))
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
    },
  };
}
