import { PassThrough, Readable } from 'node:stream';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
  UploadPartCommand,
  UploadPartCopyCommand,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { assertSafeKey, contentTypeOf, isSafeKey, type ByteRange, type StorageAdapter, type Visibility } from './adapter.ts';
import { PUBLIC_MEDIA_PREFIX } from '../../src/lib/course-links.ts';

export interface S3StorageConfig {
  /** The provider's API address (MinIO, R2, B2, Supabase); absent for AWS itself (from the region). */
  endpoint?: string | undefined;
  region: string;
  /** Private files, and public ones too unless `publicBucket` is given. */
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** `https://endpoint/bucket/key` instead of `https://bucket.endpoint/key` (MinIO, Supabase). */
  forcePathStyle: boolean;
  /** A second bucket, readable by anyone, for public files (providers whose buckets are public or private as a whole). */
  publicBucket?: string | undefined;
  /** Where browsers read public files (a public bucket's address or a CDN); absent: the shop serves them at /media/. */
  publicUrl?: string | undefined;
  /** Streams larger than this are sent in parts of this size (S3's smallest part is 5 MiB). */
  partSizeBytes?: number;
}

// S3's smallest part (but the last): a stream being uploaded holds at most UPLOAD_QUEUE parts of it in memory.
const MIN_PART_BYTES = 5 * 1024 * 1024;
const DEFAULT_PART_BYTES = MIN_PART_BYTES;
const UPLOAD_QUEUE = 2;
// Public keys carry a content hash: browsers and CDNs may keep them for a year.
const PUBLIC_CACHE_CONTROL = 'public, max-age=31536000, immutable';
const PRIVATE_CACHE_CONTROL = 'private, no-store';

/**
 * Files in an S3-compatible bucket (AWS S3, Cloudflare R2, Backblaze B2, MinIO, Supabase Storage's S3
 * endpoint) through the official SDK. With one bucket, files live under `public/` and `private/`;
 * with a public bucket beside it, each bucket holds the keys as they are. Downloads of private files
 * are presigned URLs (`signedUrl`): their bytes go from the bucket to the buyer, never through Node.
 */
export function createS3Storage(config: S3StorageConfig): StorageAdapter {
  const client = new S3Client({
    ...(config.endpoint ? { endpoint: config.endpoint } : {}),
    region: config.region,
    forcePathStyle: config.forcePathStyle,
    credentials: { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey },
    // The SDK's default CRC checksums on every upload are not understood by every S3-compatible service.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  const locate = (visibility: Visibility, key: string) => {
    assertSafeKey(key);
    if (config.publicBucket) return { Bucket: visibility === 'public' ? config.publicBucket : config.bucket, Key: key };
    return { Bucket: config.bucket, Key: `${visibility}/${key}` };
  };
  const publicBase = config.publicUrl?.replace(/\/+$/, '');

  const targetOf = (visibility: Visibility, key: string) => ({
    ...locate(visibility, key),
    ContentType: contentTypeOf(key),
    CacheControl: visibility === 'public' ? PUBLIC_CACHE_CONTROL : PRIVATE_CACHE_CONTROL,
  });

  const adapter: StorageAdapter = {
    kind: 's3',
    async put(visibility, key, data) {
      const target = targetOf(visibility, key);
      if (!(data instanceof Readable)) {
        await client.send(new PutObjectCommand({ ...target, Body: typeof data === 'string' ? Buffer.from(data) : data }));
        return;
      }
      // One request below a part's size, a multipart upload above it: never the whole file in memory.
      const upload = new Upload({
        client,
        params: { ...target, Body: data },
        partSize: config.partSizeBytes ?? DEFAULT_PART_BYTES,
        queueSize: UPLOAD_QUEUE,
      });
      await upload.done();
    },
    async putCopyWithTail(visibility, key, sourceKey, tail) {
      const source = locate(visibility, sourceKey);
      const head = await client.send(new HeadObjectCommand(source));
      // S3 cannot append, and a part other than the last is at least 5 MiB: a smaller source is sent whole.
      if ((head.ContentLength ?? 0) < MIN_PART_BYTES) {
        const original = await adapter.get(visibility, sourceKey);
        if (!original) throw new Error(`No stored file ${sourceKey} to copy`);
        await adapter.put(visibility, key, Readable.from(followedBy(original.stream(), tail)));
        return;
      }
      const target = targetOf(visibility, key);
      const { UploadId } = await client.send(new CreateMultipartUploadCommand(target));
      const part = { Bucket: target.Bucket, Key: target.Key, UploadId };
      try {
        // The bucket copies the original into the first part; only the tail is sent.
        const copied = await client.send(
          new UploadPartCopyCommand({ ...part, PartNumber: 1, CopySource: `${source.Bucket}/${source.Key}` }),
        );
        const last = await client.send(new UploadPartCommand({ ...part, PartNumber: 2, Body: tail }));
        await client.send(
          new CompleteMultipartUploadCommand({
            ...part,
            MultipartUpload: {
              Parts: [
                { PartNumber: 1, ETag: copied.CopyPartResult?.ETag },
                { PartNumber: 2, ETag: last.ETag },
              ],
            },
          }),
        );
      } catch (error) {
        await client.send(new AbortMultipartUploadCommand(part)).catch(() => {});
        throw error;
      }
    },
    async get(visibility, key) {
      if (!isSafeKey(key)) return undefined;
      const location = locate(visibility, key);
      const head = await client.send(new HeadObjectCommand(location)).catch(absentWhenMissing);
      if (!head) return undefined;
      const size = head.ContentLength ?? 0;
      const stream = (range?: ByteRange) => {
        const output = new PassThrough();
        client
          .send(new GetObjectCommand({ ...location, ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}) }))
          .then((object) => (object.Body as Readable).pipe(output))
          .catch((error: unknown) => output.destroy(error as Error));
        return output;
      };
      return { key, size, stream, read: () => filled(stream(), size) };
    },
    async delete(visibility, key) {
      await client.send(new DeleteObjectCommand(locate(visibility, key)));
    },
    async list(visibility, prefix) {
      const { Bucket, Key } = locate(visibility, prefix);
      const listed = [];
      let ContinuationToken: string | undefined;
      do {
        const page = await client.send(
          new ListObjectsV2Command({ Bucket, Prefix: `${Key}/`, Delimiter: '/', ContinuationToken }),
        );
        for (const object of page.Contents ?? []) {
          const name = object.Key?.slice(Key.length + 1) ?? '';
          if (isSafeKey(name) && object.LastModified) listed.push({ key: `${prefix}/${name}`, modifiedAt: object.LastModified });
        }
        ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (ContinuationToken);
      return listed;
    },
    publicUrl(key) {
      if (!publicBase) return `${PUBLIC_MEDIA_PREFIX}${key}`;
      return `${publicBase}/${encodeURI(locate('public', key).Key)}`;
    },
    signedUrl(key, { contentDisposition, expiresInS }) {
      const command = new GetObjectCommand({
        ...locate('private', key),
        ResponseContentType: contentTypeOf(key),
        ...(contentDisposition ? { ResponseContentDisposition: contentDisposition } : {}),
      });
      return getSignedUrl(client, command, { expiresIn: expiresInS });
    },
    unsignedUrl(visibility, key) {
      const { Bucket, Key } = locate(visibility, key);
      const endpoint = new URL(config.endpoint ?? `https://s3.${config.region}.amazonaws.com`);
      const path = `/${Key.split('/').map(encodeURIComponent).join('/')}`;
      if (config.forcePathStyle) return `${endpoint.origin}/${encodeURIComponent(Bucket)}${path}`;
      return `${endpoint.protocol}//${Bucket}.${endpoint.host}${path}`;
    },
  };
  return adapter;
}

/**
 * One buffer of the object's size filled as it streams, never its chunks and their copy at once, and a
 * buffer of its own, so it can be handed to the PDF worker without a copy.
 */
async function filled(stream: Readable, size: number): Promise<Buffer> {
  const bytes = Buffer.allocUnsafeSlow(size);
  let at = 0;
  for await (const chunk of stream) {
    const part = chunk as Buffer;
    if (at + part.length > size) throw new Error('A stored file grew while it was read');
    bytes.set(part, at);
    at += part.length;
  }
  return at === size ? bytes : bytes.subarray(0, at);
}

async function* followedBy(head: Readable, tail: Uint8Array): AsyncGenerator<Uint8Array> {
  yield* head;
  yield tail;
}

/** A missing object is absent; anything else (no access, no bucket, no network) is a failure. */
function absentWhenMissing(error: unknown): undefined {
  if (error instanceof S3ServiceException && (error.$metadata.httpStatusCode === 404 || error.name === 'NotFound'))
    return undefined;
  throw error;
}
