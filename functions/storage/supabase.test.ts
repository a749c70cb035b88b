import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSupabaseStorage } from './supabase.ts';
import { storageFor } from './storage.ts';
import type { StorageAdapter, StoredFile } from './adapter.ts';
import { FAKE_SUPABASE_KEY, startFakeSupabaseStorage } from '../../tests/support/fake-supabase-storage.ts';
import { makePdf, makePng } from '../../tests/support/files.ts';

let fake: Awaited<ReturnType<typeof startFakeSupabaseStorage>>;
let storage: StorageAdapter;

beforeAll(async () => {
  fake = await startFakeSupabaseStorage();
  storage = createSupabaseStorage({
    url: `${fake.url}/`,
    serviceRoleKey: FAKE_SUPABASE_KEY,
    publicBucket: 'public',
    privateBucket: 'course-files',
  });
});
afterAll(() => fake.stop());

const bytesOf = async (file: StoredFile) => Buffer.concat(await file.stream().toArray());

describe('Supabase Storage adapter (against a local HTTP fake of the Supabase Storage API)', () => {
  it('stores a private PDF in the private bucket with the service key, reads it back byte for byte, and deletes it', async () => {
    const pdf = await makePdf('Özel kurs');
    await storage.put('private', 'courses/abc-1.pdf', pdf);
    const upload = fake.requests.find(
      (request) => request.method === 'POST' && request.path === '/storage/v1/object/course-files/courses/abc-1.pdf',
    )!;
    expect(upload.headers.authorization).toBe(`Bearer ${FAKE_SUPABASE_KEY}`);
    expect(upload.headers.apikey).toBe(FAKE_SUPABASE_KEY);
    expect(upload.headers['content-type']).toBe('application/pdf');
    expect(upload.headers['x-upsert']).toBe('true');
    expect(fake.objects.get('course-files/courses/abc-1.pdf')!.bytes.equals(pdf)).toBe(true);

    const file = (await storage.get('private', 'courses/abc-1.pdf'))!;
    expect(file.size).toBe(pdf.length);
    expect((await bytesOf(file)).equals(pdf)).toBe(true);
    expect((await bytesOf(file)).equals(pdf)).toBe(true);

    await storage.delete('private', 'courses/abc-1.pdf');
    expect(fake.objects.has('course-files/courses/abc-1.pdf')).toBe(false);
    expect(await storage.get('private', 'courses/abc-1.pdf')).toBeUndefined();
    await expect(storage.delete('private', 'courses/abc-1.pdf')).resolves.toBeUndefined();
  });

  it('serves covers from the public bucket at their public URL, while private files have none', async () => {
    const png = makePng();
    await storage.put('public', 'covers/abc-0123456789abcdef.png', png);
    const url = storage.publicUrl('covers/abc-0123456789abcdef.png');
    expect(url).toBe(`${fake.url}/storage/v1/object/public/public/covers/abc-0123456789abcdef.png`);
    const response = await fetch(url);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/png');
    expect(response.headers.get('cache-control')).toBe('max-age=31536000');
    expect(Buffer.from(await response.arrayBuffer()).equals(png)).toBe(true);

    await storage.put('private', 'courses/secret.pdf', await makePdf());
    expect((await fetch(`${fake.url}/storage/v1/object/public/course-files/courses/secret.pdf`)).status).toBe(400);
  });

  it('stores a stream as it arrives (a stamped copy: the original, then its update)', async () => {
    const [head, tail] = [await makePdf('Önce'), Buffer.from('\n% update\n')];
    await storage.put('private', 'stamped/v1/p/courses/a.pdf', Readable.from([head, tail]));
    expect(fake.objects.get('course-files/stamped/v1/p/courses/a.pdf')!.bytes.equals(Buffer.concat([head, tail]))).toBe(true);
  });

  it('overwrites an existing key (re-running the seed is safe) and stores text as UTF-8', async () => {
    await storage.put('public', 'covers/seed.svg', '<svg>ş</svg>');
    await storage.put('public', 'covers/seed.svg', '<svg>ğ</svg>');
    const file = (await storage.get('public', 'covers/seed.svg'))!;
    expect(await text(file.stream())).toBe('<svg>ğ</svg>');
    expect(fake.objects.get('public/covers/seed.svg')!.contentType).toBe('image/svg+xml');
  });

  it('lists the files directly in a folder with their dates, page by page, leaving subfolders out', async () => {
    for (let n = 0; n < 1005; n++) await storage.put('public', `list-test/${String(n).padStart(4, '0')}.webp`, 'x');
    await storage.put('public', 'list-test/deeper/inside.webp', 'x');
    const listed = await storage.list('public', 'list-test');
    expect(listed).toHaveLength(1005);
    expect(listed[0]).toEqual({
      key: 'list-test/0000.webp',
      modifiedAt: fake.objects.get('public/list-test/0000.webp')!.updatedAt,
    });
    expect(listed.some((file) => file.key.includes('deeper'))).toBe(false);
    expect(fake.requests.filter((request) => request.path === '/storage/v1/object/list/public')).toHaveLength(2);
    expect(await storage.list('public', 'no-such-folder')).toEqual([]);
  });

  it('treats a missing object as absent, refuses unsafe keys, and surfaces real failures as errors', async () => {
    expect(await storage.get('private', 'courses/missing.pdf')).toBeUndefined();
    expect(await storage.get('private', '../etc/passwd')).toBeUndefined();
    await expect(storage.put('private', '../escape.pdf', 'x')).rejects.toThrow(/Unsafe storage key/);
    const wrongKey = createSupabaseStorage({
      url: fake.url,
      serviceRoleKey: 'not-the-service-role-key-000',
      publicBucket: 'public',
      privateBucket: 'course-files',
    });
    await expect(wrongKey.put('private', 'courses/x.pdf', 'x')).rejects.toThrow(/upload of private\/courses\/x\.pdf failed/);
    await expect(wrongKey.get('private', 'courses/x.pdf')).rejects.toThrow(/download/);
    const noBucket = createSupabaseStorage({
      url: fake.url,
      serviceRoleKey: FAKE_SUPABASE_KEY,
      publicBucket: 'public',
      privateBucket: 'no-such-bucket',
    });
    await expect(noBucket.put('private', 'courses/x.pdf', 'x')).rejects.toThrow(/Bucket not found/);
  });
});

describe('storage selection', () => {
  const buckets = { SUPABASE_BUCKET_PUBLIC: 'public', SUPABASE_BUCKET_PRIVATE: 'course-files' };

  it('uses Supabase Storage only when both SUPABASE_URL and SUPABASE_SERVICE_ROLE_KEY are set', () => {
    expect(storageFor({ ...buckets, SUPABASE_URL: fake.url, SUPABASE_SERVICE_ROLE_KEY: FAKE_SUPABASE_KEY }).kind).toBe(
      'supabase',
    );
    expect(storageFor({ ...buckets, SUPABASE_URL: undefined, SUPABASE_SERVICE_ROLE_KEY: undefined }).kind).toBe('local');
  });

  it('keeps the local disk adapter behaving as before: public and private folders, /media/ URLs', async () => {
    const root = await mkdtemp(path.join(tmpdir(), 'storage-local-'));
    try {
      const local = storageFor({ ...buckets, SUPABASE_URL: undefined, SUPABASE_SERVICE_ROLE_KEY: undefined }, () => root);
      const pdf = await makePdf();
      await local.put('private', 'courses/a.pdf', pdf);
      expect((await readFile(path.join(root, 'private', 'courses', 'a.pdf'))).equals(pdf)).toBe(true);
      await local.put('private', 'courses/b.pdf', Readable.from([pdf, Buffer.from('% update')]));
      expect(
        (await readFile(path.join(root, 'private', 'courses', 'b.pdf'))).equals(Buffer.concat([pdf, Buffer.from('% update')])),
      ).toBe(true);
      expect((await local.get('private', 'courses/a.pdf'))!.size).toBe(pdf.length);
      expect(await local.get('public', 'courses/a.pdf')).toBeUndefined();
      expect(local.publicUrl('covers/b.png')).toBe('/media/covers/b.png');
      await local.delete('private', 'courses/a.pdf');
      expect(await local.get('private', 'courses/a.pdf')).toBeUndefined();
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});
