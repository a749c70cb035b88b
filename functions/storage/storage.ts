import path from 'node:path';
import { env, type Env } from '../env.ts';
import { isSafeKey, type FileData, type StorageAdapter, type StoredFile, type Visibility } from './adapter.ts';
import { createLocalDiskStorage, PUBLIC_MEDIA_PREFIX } from './local-disk.ts';
import { createSupabaseStorage } from './supabase.ts';

/**
 * Files the shop keeps, through one adapter chosen once from the configuration: Supabase Storage
 * when SUPABASE_URL and SUPABASE_SERVICE_ROLE_KEY are set, else the local disk under DATA_DIR.
 * Public files (covers) are served to anyone; private ones (paid PDFs) only through downloads.
 */
export type { ByteRange, FileData, StorageAdapter, StoredFile, Visibility } from './adapter.ts';
export { contentTypeOf, isSafeKey } from './adapter.ts';
export { PUBLIC_MEDIA_PREFIX };

/** Where the local adapter keeps files (also what `db:reset` clears). */
export function storageRoot(): string {
  return path.resolve(env().DATA_DIR, 'storage');
}

export type StorageConfig = Pick<
  Env,
  'SUPABASE_URL' | 'SUPABASE_SERVICE_ROLE_KEY' | 'SUPABASE_BUCKET_PUBLIC' | 'SUPABASE_BUCKET_PRIVATE'
>;

/** The adapter a configuration asks for. */
export function storageFor(config: StorageConfig, localRoot: () => string = storageRoot): StorageAdapter {
  if (config.SUPABASE_URL && config.SUPABASE_SERVICE_ROLE_KEY) {
    return createSupabaseStorage({
      url: config.SUPABASE_URL,
      serviceRoleKey: config.SUPABASE_SERVICE_ROLE_KEY,
      publicBucket: config.SUPABASE_BUCKET_PUBLIC,
      privateBucket: config.SUPABASE_BUCKET_PRIVATE,
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

export function getFile(visibility: Visibility, key: string): Promise<StoredFile | undefined> {
  return storage().get(visibility, key);
}

/**
 * A stored file's bytes, for the few uses that need them whole (stamping, checking a stored PDF): one
 * buffer of the file's size filled as it streams, never its chunks and their copy at once, and a
 * buffer of its own, so it can be handed to the PDF worker without a copy.
 */
export async function readAll(file: StoredFile): Promise<Buffer> {
  const bytes = Buffer.allocUnsafeSlow(file.size);
  let filled = 0;
  for await (const chunk of file.stream()) {
    const part = chunk as Buffer;
    if (filled + part.length > file.size) throw new Error('A stored file grew while it was read');
    bytes.set(part, filled);
    filled += part.length;
  }
  return filled === file.size ? bytes : bytes.subarray(0, filled);
}

export function deleteFile(visibility: Visibility, key: string): Promise<void> {
  return storage().delete(visibility, key);
}

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
