import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../../functions/db/database.ts';
import { attachmentHeader, signedFileUrl } from '../../../functions/downloads/downloads.ts';
import { stampedKey } from '../../../functions/downloads/stamped-copies.ts';
import { orderReference } from '../../../functions/orders/orders.ts';
import { storageCheck } from '../../../functions/ops/doctor.ts';
import { storageFor, type StorageAdapter } from '../../../functions/storage/storage.ts';
import { fakeS3Settings, startFakeS3, type FakeS3 } from '../../support/fake-s3.ts';
import { makeCourse, makePurchase } from '../../support/factories.ts';
import { makePdf } from '../../support/files.ts';
import { readPdf } from '../../support/pdf-reader.ts';
import { startTestServer, type TestServer } from '../../support/test-server.ts';

/**
 * The shop on S3-compatible storage (a fake S3 (s3rver + SigV4 check): S3 is out of reach here): the
 * shop authorises and counts a download, then sends the browser to a presigned URL, so the PDF's bytes
 * never pass through Node; a buyer's stamped copy is written to the bucket once.
 */
let fake: FakeS3;
let server: TestServer;
let bucket: StorageAdapter;

beforeAll(async () => {
  fake = await startFakeS3();
  const settings = fakeS3Settings(fake);
  bucket = storageFor({ ...settings, S3_FORCE_PATH_STYLE: true });
  server = await startTestServer(settings);
}, 60_000);
afterAll(async () => {
  await server?.stop();
  await fake?.stop();
});

const countOf = async (purchaseId: string) =>
  (await db().selectFrom('purchases').select('download_count').where('id', '=', purchaseId).executeTakeFirstOrThrow())
    .download_count;

describe('downloads from S3-compatible storage (against a fake S3 (s3rver + SigV4 check))', () => {
  it('counts, then redirects to a presigned URL naming the course; the stamped copy is written once and served the same way', async () => {
    const pdfPath = `courses/${randomUUID()}.pdf`;
    await bucket.put('private', pdfPath, await makePdf('Kova'));
    const course = await makeCourse({ title: 'Bütçe planı', pdf_path: pdfPath, price_minor: 0 });
    const purchase = await makePurchase(course.id, {
      full_name: 'Ayşe Yılmaz',
      email: `s3-${randomUUID().slice(0, 8)}@example.com`,
    });
    const copyPath = `/${fake.bucket}/private/${stampedKey(purchase.id, pdfPath)}`;
    const link = signedFileUrl(purchase.id);

    const first = await server.fetch(link);
    expect(first.status).toBe(302);
    expect(first.headers.get('cache-control')).toContain('no-store');
    const location = new URL(first.headers.get('location')!);
    expect(location.origin).toBe(fake.endpoint);
    expect(location.pathname).toBe(copyPath);
    expect(location.searchParams.get('X-Amz-Expires')).toBe('300');
    expect(await countOf(purchase.id)).toBe(1);

    const file = await fetch(location);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-disposition')).toBe(attachmentHeader('Bütçe planı.pdf'));
    const bytes = Buffer.from(await file.arrayBuffer());
    const read = await readPdf(bytes);
    expect(read.pages[0]!.text).toContain(`order ${orderReference(purchase.id)}`);
    expect(read.pages[0]!.text).toContain('Ayşe Yılmaz');

    // Again: the same copy from the bucket, counted, not stamped or written again.
    const again = await server.fetch(link);
    expect(again.status).toBe(302);
    expect(Buffer.from(await (await fetch(again.headers.get('location')!)).arrayBuffer()).equals(bytes)).toBe(true);
    expect(await countOf(purchase.id)).toBe(2);
    const writesStarted = fake.requests.filter(
      (request) =>
        request.path === copyPath &&
        ((request.method === 'PUT' && !request.query.has('uploadId')) ||
          (request.method === 'POST' && request.query.has('uploads'))),
    );
    expect(writesStarted).toHaveLength(1);

    // A resumed download is redirected uncounted, and the bucket answers its Range.
    const resumed = await server.fetch(link, { headers: { range: 'bytes=100-199' } });
    expect(resumed.status).toBe(302);
    const part = await fetch(resumed.headers.get('location')!, { headers: { range: 'bytes=100-199' } });
    expect(part.status).toBe(206);
    expect(Buffer.from(await part.arrayBuffer()).equals(bytes.subarray(100, 200))).toBe(true);
    expect(await countOf(purchase.id)).toBe(2);

    // A download manager's first look: name and size, from the shop, uncounted.
    const head = await server.fetch(link, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String(bytes.length));
    expect(head.headers.get('content-disposition')).toBe(attachmentHeader('Bütçe planı.pdf'));
    expect(await countOf(purchase.id)).toBe(2);

    // The copy's address without the signature is refused: the bucket is private.
    expect((await fetch(`${fake.endpoint}${copyPath}`)).status).toBe(403);
  });

  it("the doctor's storage check passes on the private bucket and fails on a bucket open to anyone", async () => {
    expect(await storageCheck(bucket)).toMatchObject({ status: 'ok', detail: 'doctor.storageOkSignedOffline' });
    const probes = fake.requests.filter((request) => request.path.includes('/doctor/'));
    expect(probes.some((request) => request.signed === 'query' && request.status === 200)).toBe(true);
    expect(probes.some((request) => request.signed === 'none' && request.status === 403)).toBe(true);
    expect(probes.some((request) => request.method === 'DELETE')).toBe(true);
    expect(await bucket.list('private', 'doctor')).toEqual([]);

    fake.open = true;
    try {
      expect(await storageCheck(bucket)).toMatchObject({ status: 'fail', detail: 'doctor.storagePrivateLeak' });
    } finally {
      fake.open = false;
    }
    expect(await bucket.list('private', 'doctor')).toEqual([]);
  });
});
