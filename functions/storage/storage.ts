import { createReadStream } from 'node:fs';
import { mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { env } from '../env.ts';

/**
 * Files the shop keeps: public ones (covers) are served under /media/…, private ones
 * (paid PDFs) only through the download use case. Keys are relative POSIX paths.
 */
export type Visibility = 'public' | 'private';

export interface StoredFile {
  size: number;
  stream(): Readable;
}

export const PUBLIC_MEDIA_PREFIX = '/media/';
const STREAM_CHUNK_BYTES = 16 * 1024;
const SAFE_KEY = /^[a-z0-9][a-z0-9._-]*(\/[a-z0-9][a-z0-9._-]*)*$/;

export function storageRoot(): string {
  return path.resolve(env().DATA_DIR, 'storage');
}

export async function putFile(visibility: Visibility, key: string, data: Uint8Array | string): Promise<void> {
  const file = fileFor(visibility, key);
  await mkdir(path.dirname(file), { recursive: true });
  // Write then rename, so a reader never sees half a file.
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, data);
  await rename(temporary, file);
}

export async function getFile(visibility: Visibility, key: string): Promise<StoredFile | undefined> {
  if (!SAFE_KEY.test(key)) return undefined;
  const file = fileFor(visibility, key);
  const info = await stat(file).catch(() => undefined);
  if (!info?.isFile()) return undefined;
  // Small chunks keep memory flat when many large files stream at once.
  return { size: info.size, stream: () => createReadStream(file, { highWaterMark: STREAM_CHUNK_BYTES }) };
}

export async function deleteFile(visibility: Visibility, key: string): Promise<void> {
  await rm(fileFor(visibility, key), { force: true });
}

export function publicUrl(key: string): string {
  return `${PUBLIC_MEDIA_PREFIX}${key}`;
}

function fileFor(visibility: Visibility, key: string): string {
  if (!SAFE_KEY.test(key)) throw new Error(`Unsafe storage key: ${key}`);
  return path.join(storageRoot(), visibility, ...key.split('/'));
}
