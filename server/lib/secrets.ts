import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Database } from '#server/db/client.ts';
import { appSecrets } from '#server/db/schema/system.ts';

/** The first instance to start generates a secret; every later one (and every restart) reads the same. */
async function getOrCreateSecret(
  db: Database,
  key: string,
  generate: () => string | Promise<string>,
): Promise<string> {
  const [stored] = await db.select().from(appSecrets).where(eq(appSecrets.key, key));
  if (stored) return stored.value;
  // Two instances starting at once: the first insert wins and both read its value.
  await db
    .insert(appSecrets)
    .values({ key, value: await generate() })
    .onConflictDoNothing();
  const [row] = await db.select().from(appSecrets).where(eq(appSecrets.key, key));
  if (!row) throw new Error(`Secret ${key} could not be stored`);
  return row.value;
}

export type Secrets = {
  sessionSecret: string;
  vapid: { publicKey: string; privateKey: string };
  /** Signs the short-lived links to private media (photo originals). */
  mediaSecret: string;
  /** Keys the hashes of banned addresses (BAN_HASH_SECRET, else a stored one). */
  banSecret: string;
};

export async function loadSecrets(
  db: Database,
  sessionSecret?: string,
  banSecret?: string,
): Promise<Secrets> {
  const storedSessionSecret = await getOrCreateSecret(db, 'session_secret', () =>
    randomBytes(32).toString('base64url'),
  );
  const vapid = JSON.parse(
    await getOrCreateSecret(db, 'vapid_keys', async () =>
      // Loaded only the first time: a start with its keys stored never needs the library.
      JSON.stringify((await import('web-push')).default.generateVAPIDKeys()),
    ),
  ) as Secrets['vapid'];
  const mediaSecret = await getOrCreateSecret(db, 'media_secret', () =>
    randomBytes(32).toString('base64url'),
  );
  return {
    sessionSecret: sessionSecret ?? storedSessionSecret,
    vapid,
    mediaSecret,
    banSecret:
      banSecret ??
      (await getOrCreateSecret(db, 'ban_hash_secret', () => randomBytes(32).toString('base64url'))),
  };
}
