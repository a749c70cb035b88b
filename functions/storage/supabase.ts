import { Readable } from 'node:stream';
import type { SupabaseClient } from '@supabase/supabase-js';
import { assertSafeKey, contentTypeOf, isSafeKey, type StorageAdapter, type StoredFile, type Visibility } from './adapter.ts';

export interface SupabaseStorageConfig {
  /** The project URL, e.g. https://abcd.supabase.co */
  url: string;
  /** The service-role key: it bypasses row-level security, so it stays on the server. */
  serviceRoleKey: string;
  /** A public bucket (covers). */
  publicBucket: string;
  /** A private bucket (course PDFs): never public, read only by this server. */
  privateBucket: string;
}

// Public keys carry a content hash, so browsers and the CDN may keep them for a year.
const PUBLIC_CACHE_SECONDS = '31536000';
const PRIVATE_CACHE_SECONDS = '0';
const LIST_PAGE_SIZE = 1000;

/**
 * Supabase Storage through @supabase/supabase-js. The client is loaded on first use, so the local
 * adapter never pays for it. Both buckets must exist; the public one must be marked public.
 */
export function createSupabaseStorage(config: SupabaseStorageConfig): StorageAdapter {
  const base = config.url.replace(/\/+$/, '');
  let client: Promise<SupabaseClient> | undefined;
  const bucket = async (visibility: Visibility) => {
    client ??= import('@supabase/supabase-js').then(({ createClient }) =>
      createClient(base, config.serviceRoleKey, {
        auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
      }),
    );
    return (await client).storage.from(visibility === 'public' ? config.publicBucket : config.privateBucket);
  };

  const publicUrl = (key: string) =>
    `${base}/storage/v1/object/public/${encodeURIComponent(config.publicBucket)}/${encodeURI(key)}`;

  /**
   * Public files are read from their public URL: the client's download path, /object/<bucket>/…,
   * would be taken for the public route when the bucket is named `public` (the default).
   */
  const getPublic = async (key: string): Promise<StoredFile | undefined> => {
    const response = await fetch(publicUrl(key));
    if (response.status === 400 || response.status === 404) return undefined;
    if (!response.ok) throw new Error(`Supabase Storage download of public/${key} failed: HTTP ${response.status}`);
    const bytes = Buffer.from(await response.arrayBuffer());
    return { size: bytes.length, stream: (range) => Readable.from([range ? bytes.subarray(range.start, range.end + 1) : bytes]) };
  };

  return {
    kind: 'supabase',
    async put(visibility, key, data) {
      assertSafeKey(key);
      // A stream goes as it is (storage-js sends it chunked, as it arrives).
      const body =
        typeof data === 'string'
          ? Buffer.from(data)
          : data instanceof Readable
            ? data
            : Buffer.from(data.buffer, data.byteOffset, data.byteLength);
      const { error } = await (
        await bucket(visibility)
      ).upload(key, body, {
        contentType: contentTypeOf(key),
        cacheControl: visibility === 'public' ? PUBLIC_CACHE_SECONDS : PRIVATE_CACHE_SECONDS,
        upsert: true,
      });
      if (error) throw new Error(`Supabase Storage upload of ${visibility}/${key} failed: ${error.message}`);
    },
    async get(visibility, key) {
      if (!isSafeKey(key)) return undefined;
      if (visibility === 'public') return getPublic(key);
      const { data, error } = await (await bucket(visibility)).download(key);
      if (error) {
        if (isNotFound(error)) return undefined;
        throw new Error(`Supabase Storage download of ${visibility}/${key} failed: ${error.message}`);
      }
      // The whole file is held in memory (at most MAX_PDF_BYTES): the API gives its size only this way.
      return {
        size: data.size,
        stream: (range) =>
          Readable.fromWeb(
            (range ? data.slice(range.start, range.end + 1) : data).stream() as Parameters<typeof Readable.fromWeb>[0],
          ),
      };
    },
    async delete(visibility, key) {
      assertSafeKey(key);
      const { error } = await (await bucket(visibility)).remove([key]);
      if (error) throw new Error(`Supabase Storage delete of ${visibility}/${key} failed: ${error.message}`);
    },
    async list(visibility, prefix) {
      assertSafeKey(prefix);
      const listed = [];
      for (let offset = 0; ; offset += LIST_PAGE_SIZE) {
        const { data, error } = await (
          await bucket(visibility)
        ).list(prefix, { limit: LIST_PAGE_SIZE, offset, sortBy: { column: 'name', order: 'asc' } });
        if (error) throw new Error(`Supabase Storage listing of ${visibility}/${prefix} failed: ${error.message}`);
        for (const object of data) {
          // Folders come back without an id or dates.
          const when = object.updated_at ?? object.created_at;
          if (object.id === null || !when) continue;
          listed.push({ key: `${prefix}/${object.name}`, modifiedAt: new Date(when) });
        }
        if (data.length < LIST_PAGE_SIZE) return listed;
      }
    },
    publicUrl,
  };
}

/** Supabase answers a missing object with 404, or with 400 and `statusCode: "404"` (older servers). */
function isNotFound(error: Error): boolean {
  const { status, statusCode } = error as { status?: number; statusCode?: string };
  return status === 404 || statusCode === '404' || statusCode === 'not_found' || statusCode === 'NoSuchKey';
}
