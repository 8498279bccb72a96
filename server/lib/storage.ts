import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { DeleteObjectCommand, GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';

/** Where photos and other media live: a local folder by default, object storage later. */
export type MediaStorage = {
  put(key: string, data: Buffer): Promise<void>;
  get(key: string): Promise<Buffer | null>;
  remove(key: string): Promise<void>;
  /** The URL a browser loads, prefixed by the site's cdn_prefix when it has one. */
  url(key: string, cdnPrefix?: string): string;
};

export const mediaRoutePrefix = '/media/';

const safeKey = /^[a-z0-9][a-z0-9/_.-]*$/i;

export function createLocalStorage(root: string): MediaStorage {
  const resolve = (key: string) => {
    if (!safeKey.test(key) || key.includes('..')) throw new Error(`Unsafe media key: ${key}`);
    return path.join(root, key);
  };
  return {
    async put(key, data) {
      const file = resolve(key);
      await mkdir(path.dirname(file), { recursive: true });
      await writeFile(file, data);
    },
    async get(key) {
      try {
        return await readFile(resolve(key));
      } catch {
        return null;
      }
    },
    async remove(key) {
      await rm(resolve(key), { force: true });
    },
    url(key, cdnPrefix = '') {
      return `${cdnPrefix.replace(/\/$/, '')}${mediaRoutePrefix}${key}`;
    },
  };
}

export type S3Options = {
  bucket: string;
  region: string;
  endpoint?: string | undefined;
  accessKeyId?: string | undefined;
  secretAccessKey?: string | undefined;
  /** Where browsers load the objects (a CDN or the bucket's public URL). */
  publicUrl: string;
};

function contentTypeOf(key: string): string {
  if (key.endsWith('.webp')) return 'image/webp';
  if (key.endsWith('.png')) return 'image/png';
  if (key.endsWith('.jpg') || key.endsWith('.jpeg')) return 'image/jpeg';
  return 'application/octet-stream';
}

/** S3-compatible object storage (AWS S3, MinIO, R2, …): media shared by every instance. */
export function createS3Storage(options: S3Options): MediaStorage {
  const client = new S3Client({
    region: options.region,
    ...(options.endpoint ? { endpoint: options.endpoint, forcePathStyle: true } : {}),
    ...(options.accessKeyId && options.secretAccessKey
      ? { credentials: { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey } }
      : {}),
  });
  const check = (key: string) => {
    if (!safeKey.test(key) || key.includes('..')) throw new Error(`Unsafe media key: ${key}`);
    return key;
  };
  return {
    async put(key, data) {
      await client.send(
        new PutObjectCommand({
          Bucket: options.bucket,
          Key: check(key),
          Body: data,
          ContentType: contentTypeOf(key),
          CacheControl: 'public, max-age=31536000, immutable',
        }),
      );
    },
    async get(key) {
      try {
        const answer = await client.send(new GetObjectCommand({ Bucket: options.bucket, Key: check(key) }));
        return answer.Body ? Buffer.from(await answer.Body.transformToByteArray()) : null;
      } catch {
        return null;
      }
    },
    async remove(key) {
      await client.send(new DeleteObjectCommand({ Bucket: options.bucket, Key: check(key) }));
    },
    url(key, cdnPrefix = '') {
      return `${(cdnPrefix || options.publicUrl).replace(/\/$/, '')}/${key}`;
    },
  };
}
