import type { Readable } from 'node:stream';

/**
 * The storage contract both adapters keep. Public files (covers) are served to anyone, private ones
 * (paid PDFs) only through the download use case. Keys are relative POSIX paths.
 */
export type Visibility = 'public' | 'private';

/** What is stored: bytes, text (as UTF-8), or a stream of bytes (written as it arrives, never held whole). */
export type FileData = Uint8Array | string | Readable;

export interface StoredFile {
  /** Its key in its visibility (a stamped copy's, or the original's when it was served unstamped). */
  key: string;
  size: number;
  /** The file's bytes, or only those from `start` to `end` (both included, as in HTTP's Range). */
  stream(range?: ByteRange): Readable;
  /** All its bytes at once, for the work that needs a whole file (a PDF to parse): read in as few steps as the service allows. */
  read(): Promise<Buffer>;
}

export interface ByteRange {
  start: number;
  end: number;
}

/** A stored file as a listing shows it. */
export interface ListedFile {
  key: string;
  /** When its bytes were last written (an upload of the same key again counts). */
  modifiedAt: Date;
}

/** How a presigned download answers: the name the browser saves it under, and for how long the URL works. */
export interface SignedUrlOptions {
  contentDisposition?: string;
  expiresInS: number;
}

export interface StorageAdapter {
  readonly kind: 'local' | 's3';
  put(visibility: Visibility, key: string, data: FileData): Promise<void>;
  /**
   * Stores the file at `sourceKey` followed by `tail` under `key` (a stamped copy: the original, then
   * its update), copying the source inside the storage service so its bytes never pass through Node.
   */
  putCopyWithTail(visibility: Visibility, key: string, sourceKey: string, tail: Uint8Array): Promise<void>;
  /** The file, or undefined when it does not exist (or the key is not a safe key). */
  get(visibility: Visibility, key: string): Promise<StoredFile | undefined>;
  /** Removes the file; removing a missing file is not an error. */
  delete(visibility: Visibility, key: string): Promise<void>;
  /** The files directly in the folder `prefix` (not in its subfolders); a missing folder lists nothing. */
  list(visibility: Visibility, prefix: string): Promise<ListedFile[]>;
  /** Where browsers fetch a public file. */
  publicUrl(key: string): string;
  /**
   * A short-lived URL from which a browser reads a private file straight from the storage service
   * (Range honoured), when the adapter has one; otherwise the shop streams the file itself.
   */
  signedUrl?(key: string, options: SignedUrlOptions): Promise<string>;
  /** The file's address at the storage service without a signature: the doctor checks private ones are refused there. */
  unsignedUrl?(visibility: Visibility, key: string): string;
}

const SAFE_KEY = /^[a-z0-9][a-z0-9._-]*(\/[a-z0-9][a-z0-9._-]*)*$/;

export function isSafeKey(key: string): boolean {
  return SAFE_KEY.test(key) && !key.split('/').some((segment) => segment === '..' || segment === '.');
}

export function assertSafeKey(key: string): void {
  if (!isSafeKey(key)) throw new Error(`Unsafe storage key: ${key}`);
}

const CONTENT_TYPES: Record<string, string> = {
  pdf: 'application/pdf',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
  svg: 'image/svg+xml',
};

export function contentTypeOf(key: string): string {
  return CONTENT_TYPES[key.split('.').pop()?.toLowerCase() ?? ''] ?? 'application/octet-stream';
}
