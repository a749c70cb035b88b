import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createS3Storage, type S3StorageConfig } from './s3.ts';
import { storageFor } from './storage.ts';
import type { StorageAdapter, StoredFile } from './adapter.ts';
import { FAKE_S3_ACCESS_KEY_ID, FAKE_S3_REGION, FAKE_S3_SECRET, startFakeS3, type FakeS3 } from '../../tests/support/fake-s3.ts';
import { makePdf, makePng } from '../../tests/support/files.ts';

let fake: FakeS3;
let localRoot: string;
let s3Config: S3StorageConfig;
const adapters: Record<'local' | 's3', StorageAdapter> = {} as never;

beforeAll(async () => {
  fake = await startFakeS3();
  localRoot = await mkdtemp(path.join(tmpdir(), 'storage-local-'));
  s3Config = {
    endpoint: fake.endpoint,
    region: FAKE_S3_REGION,
    bucket: fake.bucket,
    accessKeyId: FAKE_S3_ACCESS_KEY_ID,
    secretAccessKey: FAKE_S3_SECRET,
    forcePathStyle: true,
  };
  adapters.local = storageFor({}, () => localRoot);
  adapters.s3 = createS3Storage(s3Config);
});
afterAll(async () => {
  await fake?.stop();
  await rm(localRoot, { recursive: true, force: true });
});

const bytesOf = async (file: StoredFile, range?: { start: number; end: number }) =>
  Buffer.concat(await file.stream(range).toArray());

describe.each(['local', 's3'] as const)(
  'the storage contract, %s adapter (s3: against a fake S3 (s3rver + SigV4 check))',
  (kind) => {
    const storage = () => adapters[kind];

    it('stores a private PDF, reads it back byte for byte (streamed, at once, or a range), and deletes it', async () => {
      const pdf = await makePdf('Özel kurs');
      await storage().put('private', 'courses/abc-1.pdf', pdf);
      const file = (await storage().get('private', 'courses/abc-1.pdf'))!;
      expect(file).toMatchObject({ key: 'courses/abc-1.pdf', size: pdf.length });
      expect((await bytesOf(file)).equals(pdf)).toBe(true);
      expect((await bytesOf(file)).equals(pdf)).toBe(true);
      expect((await file.read()).equals(pdf)).toBe(true);
      expect((await bytesOf(file, { start: 5, end: 9 })).equals(pdf.subarray(5, 10))).toBe(true);
      expect(await storage().get('public', 'courses/abc-1.pdf')).toBeUndefined();

      await storage().delete('private', 'courses/abc-1.pdf');
      expect(await storage().get('private', 'courses/abc-1.pdf')).toBeUndefined();
      await expect(storage().delete('private', 'courses/abc-1.pdf')).resolves.toBeUndefined();
    });

    it('stores a stream as it arrives (a stamped copy: the original, then its update)', async () => {
      const [head, tail] = [await makePdf('Önce'), Buffer.from('\n% update\n')];
      await storage().put('private', 'stamped/v1/p/courses/a.pdf', Readable.from([head, tail]));
      const file = (await storage().get('private', 'stamped/v1/p/courses/a.pdf'))!;
      expect((await bytesOf(file)).equals(Buffer.concat([head, tail]))).toBe(true);
    });

    it('stores a copy of a stored file followed by a tail (a stamped copy), leaving the original as it was', async () => {
      const [head, tail] = [await makePdf('Kopya'), Buffer.from('\n% update\n')];
      await storage().put('private', 'courses/copied.pdf', head);
      await storage().putCopyWithTail('private', 'stamped/v1/q/courses/copied.pdf', 'courses/copied.pdf', tail);
      const copy = (await storage().get('private', 'stamped/v1/q/courses/copied.pdf'))!;
      expect((await bytesOf(copy)).equals(Buffer.concat([head, tail]))).toBe(true);
      expect((await bytesOf((await storage().get('private', 'courses/copied.pdf'))!)).equals(head)).toBe(true);
      await expect(storage().putCopyWithTail('private', 'stamped/v1/q/x.pdf', 'courses/missing.pdf', tail)).rejects.toThrow();
      expect(await storage().get('private', 'stamped/v1/q/x.pdf')).toBeUndefined();
    });

    it('overwrites an existing key (re-running the seed is safe) and stores text as UTF-8', async () => {
      await storage().put('public', 'covers/seed.svg', '<svg>ş</svg>');
      await storage().put('public', 'covers/seed.svg', '<svg>ğ</svg>');
      expect(await text((await storage().get('public', 'covers/seed.svg'))!.stream())).toBe('<svg>ğ</svg>');
    });

    it('lists the files directly in a folder with their dates, leaving subfolders out', async () => {
      const before = Date.now() - 2000;
      for (const name of ['0001.webp', '0002.webp', 'deeper/inside.webp'])
        await storage().put('public', `list-test/${name}`, 'x');
      const listed = await storage().list('public', 'list-test');
      expect(listed.map((file) => file.key).sort()).toEqual(['list-test/0001.webp', 'list-test/0002.webp']);
      for (const file of listed) expect(file.modifiedAt.getTime()).toBeGreaterThan(before);
      expect(await storage().list('public', 'no-such-folder')).toEqual([]);
    });

    it('treats a missing object as absent and refuses unsafe keys', async () => {
      expect(await storage().get('private', 'courses/missing.pdf')).toBeUndefined();
      expect(await storage().get('private', '../etc/passwd')).toBeUndefined();
      await expect(storage().put('private', '../escape.pdf', 'x')).rejects.toThrow(/Unsafe storage key/);
    });
  },
);

describe('local disk streams', () => {
  it('read in large chunks while few stream, in small ones when a hundred do, and give their share back on close', async () => {
    await adapters.local.put('private', 'courses/chunks.pdf', Buffer.alloc(1024 * 1024, 7));
    const file = (await adapters.local.get('private', 'courses/chunks.pdf'))!;
    const firstChunk = async () => {
      const stream = file.stream();
      const [chunk] = (await stream.take(1).toArray()) as Buffer[];
      return chunk!.length;
    };
    // One download alone: 256 KB a step (it was 16 KB, about twice the server's time for a 20 MB file).
    expect(await firstChunk()).toBe(256 * 1024);
    const crowd = Array.from({ length: 100 }, () => file.stream());
    expect(await firstChunk()).toBe(16 * 1024);
    await Promise.all(crowd.map((stream) => new Promise((closed) => stream.once('close', closed).destroy())));
    expect(await firstChunk()).toBe(256 * 1024);
  });
});

describe('S3 adapter against a fake S3 (s3rver + SigV4 check)', () => {
  const s3 = () => adapters.s3;
  const requestsFor = (key: string) => fake.requests.filter((request) => request.path === `/${fake.bucket}/private/${key}`);

  it('streams a large file up in parts (multipart above the part size) and a small one in one request', async () => {
    const partSizeBytes = 5 * 1024 * 1024;
    const streaming = createS3Storage({ ...s3Config, partSizeBytes });
    const chunk = Buffer.alloc(1024 * 1024, 7);
    const chunks = (count: number) =>
      Readable.from(Array.from({ length: count }, (_, n) => Buffer.from(chunk.map((b) => b + n))));
    await streaming.put('private', 'courses/large.pdf', chunks(12));
    const large = requestsFor('courses/large.pdf');
    expect(large.filter((request) => request.method === 'POST' && request.query.has('uploads'))).toHaveLength(1);
    expect(large.filter((request) => request.method === 'PUT' && request.query.has('partNumber'))).toHaveLength(3);
    expect(large.every((request) => request.signed === 'header' && request.status < 300)).toBe(true);
    const stored = (await streaming.get('private', 'courses/large.pdf'))!;
    expect(stored.size).toBe(12 * chunk.length);
    expect((await bytesOf(stored)).equals(Buffer.concat(await chunks(12).toArray()))).toBe(true);

    await streaming.put('private', 'courses/small.pdf', chunks(1));
    expect(
      requestsFor('courses/small.pdf').filter((request) => request.method === 'PUT' && !request.query.has('partNumber')),
    ).toHaveLength(1);
  });

  it('copies a large original inside the bucket (UploadPartCopy) and sends only the tail', async () => {
    const original = Buffer.alloc(6 * 1024 * 1024, 3);
    const tail = Buffer.from('\n% the stamp\n');
    await s3().put('private', 'courses/large-original.pdf', original);
    await s3().putCopyWithTail('private', 'stamped/v1/r/courses/large-original.pdf', 'courses/large-original.pdf', tail);
    const sent = requestsFor('stamped/v1/r/courses/large-original.pdf');
    expect(sent.filter((request) => request.method === 'PUT' && request.query.has('partNumber'))).toHaveLength(2);
    expect(sent.reduce((bytes, request) => bytes + request.bytes, 0)).toBeLessThan(4096);
    expect(sent.every((request) => request.signed === 'header' && request.status < 300)).toBe(true);
    const copy = (await s3().get('private', 'stamped/v1/r/courses/large-original.pdf'))!;
    expect(copy.size).toBe(original.length + tail.length);
    expect(
      (await bytesOf(copy, { start: original.length - 2, end: copy.size - 1 })).equals(
        Buffer.concat([original.subarray(-2), tail]),
      ),
    ).toBe(true);
  });

  it('presigns a download that names the file and honours Range, and refuses expired, altered and foreign signatures', async () => {
    const pdf = await makePdf('İndirme');
    await s3().put('private', 'courses/signed.pdf', pdf);
    const disposition = `attachment; filename="Kurs.pdf"; filename*=UTF-8''K%C3%BCrs.pdf`;
    const url = await s3().signedUrl!('courses/signed.pdf', { contentDisposition: disposition, expiresInS: 300 });
    expect(new URL(url).searchParams.get('X-Amz-Expires')).toBe('300');
    const whole = await fetch(url);
    expect(whole.status).toBe(200);
    expect(whole.headers.get('content-disposition')).toBe(disposition);
    expect(whole.headers.get('content-type')).toBe('application/pdf');
    expect(Buffer.from(await whole.arrayBuffer()).equals(pdf)).toBe(true);
    const part = await fetch(url, { headers: { range: 'bytes=10-19' } });
    expect(part.status).toBe(206);
    expect(Buffer.from(await part.arrayBuffer()).equals(pdf.subarray(10, 20))).toBe(true);

    const client = new S3Client({
      endpoint: fake.endpoint,
      region: FAKE_S3_REGION,
      forcePathStyle: true,
      credentials: { accessKeyId: FAKE_S3_ACCESS_KEY_ID, secretAccessKey: FAKE_S3_SECRET },
    });
    const object = new GetObjectCommand({ Bucket: fake.bucket, Key: 'private/courses/signed.pdf' });
    const expired = await getSignedUrl(client, object, { expiresIn: 300, signingDate: new Date(Date.now() - 6 * 60_000) });
    const signature = new URL(url).searchParams.get('X-Amz-Signature')!;
    const altered = url.replace(signature, `${signature.slice(0, -1)}${signature.endsWith('0') ? '1' : '0'}`);
    const foreign = await createS3Storage({ ...s3Config, secretAccessKey: 'another-secret-another-secret-000' }).signedUrl!(
      'courses/signed.pdf',
      { expiresInS: 300 },
    );
    for (const refused of [expired, altered, foreign, s3().unsignedUrl!('private', 'courses/signed.pdf')]) {
      const answer = await fetch(refused);
      expect(answer.status, refused).toBe(403);
      expect(await answer.text()).not.toContain('%PDF');
    }
  });

  it('keeps public files under public/ with a year of caching, served by the shop unless a public address is set', async () => {
    const png = makePng();
    await s3().put('public', 'covers/abc-0123456789abcdef.png', png);
    expect(s3().publicUrl('covers/abc-0123456789abcdef.png')).toBe('/media/covers/abc-0123456789abcdef.png');
    const cdn = createS3Storage({ ...s3Config, publicUrl: `${fake.endpoint}/${fake.bucket}/` });
    const url = cdn.publicUrl('covers/abc-0123456789abcdef.png');
    expect(url).toBe(`${fake.endpoint}/${fake.bucket}/public/covers/abc-0123456789abcdef.png`);
    fake.open = true;
    try {
      const served = await fetch(url);
      expect(served.status).toBe(200);
      expect(served.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(Buffer.from(await served.arrayBuffer()).equals(png)).toBe(true);
    } finally {
      fake.open = false;
    }
    expect((await fetch(url)).status).toBe(403);
  });

  it('surfaces a wrong secret or a missing bucket as errors, never as a missing file', async () => {
    const wrongKey = createS3Storage({ ...s3Config, secretAccessKey: 'not-the-secret-not-the-secret-000' });
    await expect(wrongKey.put('private', 'courses/x.pdf', 'x')).rejects.toThrow();
    await expect(wrongKey.get('private', 'courses/x.pdf')).rejects.toThrow();
    const noBucket = createS3Storage({ ...s3Config, bucket: 'no-such-bucket' });
    await expect(noBucket.put('private', 'courses/x.pdf', 'x')).rejects.toThrow(/bucket/i);
  });

  it('with a public bucket beside the private one, keeps each key as it is in its bucket', () => {
    const two = createS3Storage({ ...s3Config, publicBucket: 'covers', publicUrl: 'https://cdn.example.com/covers' });
    expect(two.publicUrl('covers/a.webp')).toBe('https://cdn.example.com/covers/covers/a.webp');
    expect(two.unsignedUrl!('private', 'courses/a.pdf')).toBe(`${fake.endpoint}/${fake.bucket}/courses/a.pdf`);
    expect(two.unsignedUrl!('public', 'covers/a.webp')).toBe(`${fake.endpoint}/covers/covers/a.webp`);
  });
});

describe('storage selection', () => {
  it('uses S3 when S3_BUCKET and its keys are set, else the local disk', async () => {
    expect(
      storageFor({
        S3_BUCKET: 'shop',
        S3_ENDPOINT: fake.endpoint,
        S3_ACCESS_KEY_ID: FAKE_S3_ACCESS_KEY_ID,
        S3_SECRET_ACCESS_KEY: FAKE_S3_SECRET,
      }).kind,
    ).toBe('s3');
    const local = storageFor({}, () => localRoot);
    expect(local.kind).toBe('local');
    expect('signedUrl' in local).toBe(false);
    await local.put('private', 'courses/a.pdf', 'pdf');
    expect(await readFile(path.join(localRoot, 'private', 'courses', 'a.pdf'), 'utf8')).toBe('pdf');
    expect(local.publicUrl('covers/b.png')).toBe('/media/covers/b.png');
  });
});
