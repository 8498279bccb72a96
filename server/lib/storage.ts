import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { S3Client } from '@aws-sdk/client-s3';
import type { Config } from '#server/config.ts';
import type { Clock } from './clock.ts';
import { type MediaSigner, mediaLinkLifetimeSeconds } from './media-signing.ts';

/**
 * Where photos and other media live: a local folder by default, S3-compatible object storage with
 * several machines. Keys under `private/` (the originals of photos) are never reachable by a public
 * URL: `url()` gives a short-lived signed link to the app's own route (`/media/private/…`), which
 * checks it and hands out the bytes (local) or redirects to a presigned GET URL (S3).
 * Everything else (`public/…` blurred copies, `gifts/…`) is public. See docs/decisions/008.
 */
export type MediaStorage = {
  put(key: string, data: Buffer): Promise<void>;
  get(key: string): Promise<Buffer | null>;
  remove(key: string): Promise<void>;
  /**
   * The URL a browser loads: for a public key prefixed by the site's cdn_prefix when it has one,
   * for a private key a signed link on the site's own origin that expires.
   */
  url(key: string, cdnPrefix?: string): string;
  /** Checks the signature of a private link (key, expiry, signature as the link carries them). */
  readonly signer: MediaSigner;
  /** How the private route hands out an object whose link checked out; null when there is none. */
  deliverPrivate(key: string): Promise<PrivateDelivery | null>;
};

export type PrivateDelivery = { data: Buffer; contentType: string } | { redirect: string };

export const mediaRoutePrefix = '/media/';
/** The app's route for private objects; links carry `e` (expiry, Unix seconds) and `s` (signature). */
export const privateMediaRoute = '/media/private/';
export const privateKeyPrefix = 'private/';
export const publicKeyPrefix = 'public/';
/** Top folders of the local media folder that the public static route serves (old layouts are not). */
export const publicKeyFolders = ['public/', 'gifts/'] as const;

export function isPrivateKey(key: string): boolean {
  return key.startsWith(privateKeyPrefix);
}

/** The name part of a key (no folder): random letters, so a guess never finds an object. */
export const mediaNamePattern = /^[A-Za-z0-9_-]{16,64}\.webp$/;

/**
 * A key for a new object: random (128 bits) and unrelated to the member, the photo or its other
 * variants, so one URL reveals nothing about another.
 */
export function newMediaKey(visibility: 'private' | 'public'): string {
  return `${visibility}/${randomBytes(16).toString('base64url')}.webp`;
}

const safeKey = /^[a-z0-9][a-z0-9/_.-]*$/i;

function checkKey(key: string): string {
  if (!safeKey.test(key) || key.includes('..')) throw new Error(`Unsafe media key: ${key}`);
  return key;
}

function contentTypeOf(key: string): string {
  if (key.endsWith('.webp')) return 'image/webp';
  if (key.endsWith('.png')) return 'image/png';
  if (key.endsWith('.jpg') || key.endsWith('.jpeg')) return 'image/jpeg';
  return 'application/octet-stream';
}

function signedLink(signer: MediaSigner, key: string): string {
  const { expires, signature } = signer.sign(key);
  return `${privateMediaRoute}${key.slice(privateKeyPrefix.length)}?e=${expires}&s=${signature}`;
}

export type LocalStorageOptions = {
  /** Served as it is under /media/ (only its public folders). */
  publicRoot: string;
  /** Outside every static route: the private objects, without their `private/` prefix. */
  privateRoot: string;
  signer: MediaSigner;
};

export function createLocalStorage(options: LocalStorageOptions): MediaStorage {
  const resolve = (key: string) =>
    isPrivateKey(checkKey(key))
      ? path.join(options.privateRoot, key.slice(privateKeyPrefix.length))
      : path.join(options.publicRoot, key);
  const get = async (key: string) => {
    const file = resolve(key);
    try {
      return await readFile(file);
    } catch (error) {
      // Not found is only a missing file (or a folder on its path that is a file); anything else
      // (a folder where the file should be, no permission, a failing disk) is raised.
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') return null;
      throw error;
    }
  };
  return {
    signer: options.signer,
    async put(key, data) {
      const file = resolve(key);
      await mkdir(path.dirname(file), { recursive: true });
      await writeFile(file, data);
    },
    get,
    async remove(key) {
      await rm(resolve(key), { force: true });
    },
    url(key, cdnPrefix = '') {
      if (isPrivateKey(key)) return signedLink(options.signer, key);
      return `${cdnPrefix.replace(/\/$/, '')}${mediaRoutePrefix}${key}`;
    },
    async deliverPrivate(key) {
      const data = await get(key);
      return data ? { data, contentType: contentTypeOf(key) } : null;
    },
  };
}

export type S3Options = {
  bucket: string;
  region: string;
  endpoint?: string | undefined;
  accessKeyId?: string | undefined;
  secretAccessKey?: string | undefined;
  /** Where browsers load the public objects (a CDN or the bucket's public URL for `public/*`, `gifts/*`). */
  publicUrl: string;
  signer: MediaSigner;
  clock: Clock;
};

/** A presigned URL is made for the start of its 10-minute window, so it stays the same (cacheable) within it. */
const presignWindowMs = 600_000;

/**
 * S3-compatible object storage (AWS S3, MinIO, R2, …): media shared by every instance. The bucket is
 * private; only `public/*` and `gifts/*` may be readable anonymously (bucket policy or CDN).
 * Private objects are reached through presigned GET URLs that expire after an hour.
 */
export function createS3Storage(options: S3Options): MediaStorage {
  // The SDK loads on first use, not at start (half a second of module loading a local-storage
  // deployment never needs).
  let sdk:
    | Promise<{
        client: S3Client;
        s3: typeof import('@aws-sdk/client-s3');
        getSignedUrl: typeof import('@aws-sdk/s3-request-presigner').getSignedUrl;
      }>
    | undefined;
  const loadSdk = () => {
    sdk ??= Promise.all([import('@aws-sdk/client-s3'), import('@aws-sdk/s3-request-presigner')]).then(
      ([s3, presigner]) => ({
        s3,
        getSignedUrl: presigner.getSignedUrl,
        client: new s3.S3Client({
          region: options.region,
          ...(options.endpoint ? { endpoint: options.endpoint, forcePathStyle: true } : {}),
          ...(options.accessKeyId && options.secretAccessKey
            ? { credentials: { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey } }
            : {}),
        }),
      }),
    );
    return sdk;
  };
  return {
    signer: options.signer,
    async put(key, data) {
      const { client, s3 } = await loadSdk();
      await client.send(
        new s3.PutObjectCommand({
          Bucket: options.bucket,
          Key: checkKey(key),
          Body: data,
          ContentType: contentTypeOf(key),
          CacheControl: isPrivateKey(key)
            ? `private, max-age=${mediaLinkLifetimeSeconds}`
            : 'public, max-age=31536000, immutable',
        }),
      );
    },
    async get(key) {
      const { client, s3 } = await loadSdk();
      const command = new s3.GetObjectCommand({ Bucket: options.bucket, Key: checkKey(key) });
      try {
        const answer = await client.send(command);
        return answer.Body ? Buffer.from(await answer.Body.transformToByteArray()) : null;
      } catch (error) {
        // Not found is only NoSuchKey (a 404); a denied read, a missing bucket or an unreachable
        // endpoint is raised.
        if (isS3NotFound(error)) return null;
        throw error;
      }
    },
    async remove(key) {
      const { client, s3 } = await loadSdk();
      await client.send(new s3.DeleteObjectCommand({ Bucket: options.bucket, Key: checkKey(key) }));
    },
    url(key, cdnPrefix = '') {
      if (isPrivateKey(key)) return signedLink(options.signer, key);
      return `${(cdnPrefix || options.publicUrl).replace(/\/$/, '')}/${key}`;
    },
    async deliverPrivate(key) {
      const { client, s3, getSignedUrl } = await loadSdk();
      const now = options.clock.now().getTime();
      const redirect = await getSignedUrl(
        client,
        new s3.GetObjectCommand({ Bucket: options.bucket, Key: checkKey(key) }),
        {
          expiresIn: mediaLinkLifetimeSeconds,
          signingDate: new Date(now - (now % presignWindowMs)),
        },
      );
      return { redirect };
    },
  };
}

/**
 * An S3 answer that the object is not there: NoSuchKey, or another 404 whose code the SDK could not
 * read (some S3-compatible stores answer without a body), but never a missing bucket.
 */
export function isS3NotFound(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { name, $metadata } = error as { name?: unknown; $metadata?: { httpStatusCode?: unknown } };
  if (name === 'NoSuchKey') return true;
  return $metadata?.httpStatusCode === 404 && name !== 'NoSuchBucket';
}

/** The storage the configuration asks for: S3 when `S3_BUCKET` is set, else folders in `DATA_DIR`. */
export function createMediaStorage(config: Config, signer: MediaSigner, clock: Clock): MediaStorage {
  if (config.S3_BUCKET) {
    return createS3Storage({
      bucket: config.S3_BUCKET,
      region: config.S3_REGION,
      endpoint: config.S3_ENDPOINT,
      accessKeyId: config.S3_ACCESS_KEY_ID,
      secretAccessKey: config.S3_SECRET_ACCESS_KEY,
      publicUrl:
        config.S3_PUBLIC_URL ??
        (config.S3_ENDPOINT
          ? `${config.S3_ENDPOINT.replace(/\/$/, '')}/${config.S3_BUCKET}`
          : `https://${config.S3_BUCKET}.s3.${config.S3_REGION}.amazonaws.com`),
      signer,
      clock,
    });
  }
  return createLocalStorage({ ...localMediaFolders(config), signer });
}

/** The local folders: the public one is what /media/ serves; the private one is never served as it is. */
export function localMediaFolders(config: Pick<Config, 'DATA_DIR'>) {
  return {
    publicRoot: path.join(config.DATA_DIR, 'media'),
    privateRoot: path.join(config.DATA_DIR, 'media-private'),
  };
}
