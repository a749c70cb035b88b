import path from 'node:path';
import { env, type Env } from '../env.ts';
import { isSafeKey, type FileData, type StorageAdapter, type StoredFile, type Visibility } from './adapter.ts';
import { createLocalDiskStorage, PUBLIC_MEDIA_PREFIX } from './local-disk.ts';
import { createS3Storage } from './s3.ts';

/**
 * Files the shop keeps, through one adapter chosen once from the configuration: an S3-compatible
 * bucket when S3_BUCKET is set, else the local disk under DATA_DIR.
 * Public files (covers) are served to anyone; private ones (paid PDFs) only through downloads.
 */
export type { ByteRange, FileData, StorageAdapter, StoredFile, Visibility } from './adapter.ts';
export { contentTypeOf, isSafeKey } from './adapter.ts';
export { PUBLIC_MEDIA_PREFIX };

/** Where the local adapter keeps files (also what `db:reset` clears). */
export function storageRoot(): string {
  return path.resolve(env().DATA_DIR, 'storage');
}

export type StorageConfig = Partial<
  Pick<
    Env,
    | 'S3_BUCKET'
    | 'S3_ENDPOINT'
    | 'S3_REGION'
    | 'S3_ACCESS_KEY_ID'
    | 'S3_SECRET_ACCESS_KEY'
    | 'S3_FORCE_PATH_STYLE'
    | 'S3_PUBLIC_BUCKET'
    | 'S3_PUBLIC_URL'
  >
>;

/** The adapter a configuration asks for (env() has checked that a bucket comes with its keys). */
export function storageFor(config: StorageConfig, localRoot: () => string = storageRoot): StorageAdapter {
  if (config.S3_BUCKET && config.S3_ACCESS_KEY_ID && config.S3_SECRET_ACCESS_KEY) {
    return createS3Storage({
      endpoint: config.S3_ENDPOINT,
      region: config.S3_REGION ?? 'us-east-1',
      bucket: config.S3_BUCKET,
      accessKeyId: config.S3_ACCESS_KEY_ID,
      secretAccessKey: config.S3_SECRET_ACCESS_KEY,
      forcePathStyle: config.S3_FORCE_PATH_STYLE ?? false,
      publicBucket: config.S3_PUBLIC_BUCKET,
      publicUrl: config.S3_PUBLIC_URL,
    });
  }
  return createLocalDiskStorage(localRoot);
}

let selected: StorageAdapter | undefined;

export function storage(): StorageAdapter {
  selected ??= storageFor(env());
  return selected;
}

export function putFile(visibility: Visibility, key: string, data: FileData): Promise<void> {
  return storage().put(visibility, key, data);
}

/** Stores the file at `sourceKey` followed by `tail`, copied inside the storage service (StorageAdapter.putCopyWithTail). */
export function putCopyWithTail(visibility: Visibility, key: string, sourceKey: string, tail: Uint8Array): Promise<void> {
  return storage().putCopyWithTail(visibility, key, sourceKey, tail);
}

export function getFile(visibility: Visibility, key: string): Promise<StoredFile | undefined> {
  return storage().get(visibility, key);
}

export function deleteFile(visibility: Visibility, key: string): Promise<void> {
  return storage().delete(visibility, key);
}

/**
 * A presigned URL from which the buyer's browser reads a private file straight from the bucket, for
 * a few minutes, saved under `contentDisposition`; undefined when the adapter has none (the local
 * disk), and the shop streams the file itself.
 */
export function signedDownloadUrl(key: string, contentDisposition: string): Promise<string> | undefined {
  return storage().signedUrl?.(key, { contentDisposition, expiresInS: SIGNED_DOWNLOAD_TTL_S });
}

// Long enough to start a download on a slow line; a resumed download asks the shop for a fresh one.
export const SIGNED_DOWNLOAD_TTL_S = 5 * 60;

export function publicUrl(key: string): string {
  return storage().publicUrl(key);
}

/** The key of a public file from its URL, or undefined when the URL is not one of this shop's files. */
export function publicKeyOf(url: string): string | undefined {
  const prefix = publicUrl('');
  if (!url.startsWith(prefix)) return undefined;
  let key: string;
  try {
    key = decodeURI(url.slice(prefix.length));
  } catch {
    return undefined;
  }
  return isSafeKey(key) ? key : undefined;
}
