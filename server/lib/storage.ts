import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

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
