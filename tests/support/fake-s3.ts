import { createHash, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Hash } from '@smithy/hash-node';
import { SignatureV4 } from '@smithy/signature-v4';
import { findFreePort } from '../../functions/db/embedded.ts';

/** s3rver's one account: it takes any V4 signature of this key id, so the front checks them. */
export const FAKE_S3_ACCESS_KEY_ID = 'S3RVER';
export const FAKE_S3_SECRET = 'fake-s3-secret-for-tests-0123456789abcdef';
export const FAKE_S3_REGION = 'us-east-1';

interface S3rverServer {
  run(): Promise<{ port: number }>;
  close(): Promise<void>;
}
type S3rverClass = new (options: Record<string, unknown>) => S3rverServer;
const S3rver = createRequire(import.meta.url)('s3rver') as S3rverClass;

export interface RecordedS3Request {
  method: string;
  path: string;
  query: URLSearchParams;
  signed: 'header' | 'query' | 'none';
  status: number;
  /** The request body's size: what the client sent through the network. */
  bytes: number;
}

export interface FakeS3 {
  /** The endpoint the adapter and browsers use (the verifying front). */
  endpoint: string;
  bucket: string;
  requests: RecordedS3Request[];
  /** Unsigned reads are let through (a bucket made public) while true. */
  open: boolean;
  stop(): Promise<void>;
}

/**
 * fake S3 (s3rver + SigV4 check): s3rver (3.7) stores and serves objects, multipart uploads and Range
 * requests, but takes any Signature V4 and serves objects to anonymous readers, and has no UploadPartCopy
 * (the front does it: copyPart). A small front before it
 * does what S3 does first: recomputes each request's signature (Authorization header or presigned
 * query) with `@smithy/signature-v4` and the secret, checks the body's declared hash and a presigned
 * URL's expiry, and answers 403 otherwise. `open: true` lets unsigned reads through, as a bucket
 * made public does; by default they are refused, as in a private bucket.
 */
export async function startFakeS3({ bucket = 'shop', open = false }: { bucket?: string; open?: boolean } = {}): Promise<FakeS3> {
  const directory = await mkdtemp(path.join(tmpdir(), 'fake-s3-'));
  const backendPort = await findFreePort();
  const backend = new S3rver({
    address: '127.0.0.1',
    port: backendPort,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket }],
  });
  await backend.run();
  const requests: RecordedS3Request[] = [];
  const fake: FakeS3 = {
    endpoint: '',
    bucket,
    requests,
    open,
    async stop() {
      await new Promise<void>((resolve) => front.close(() => resolve()));
      await backend.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
  const front = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const url = new URL(req.url ?? '/', 'http://fake');
      const signed = req.headers.authorization ? 'header' : url.searchParams.has('X-Amz-Signature') ? 'query' : 'none';
      const record = (status: number) =>
        requests.push({
          method: req.method ?? 'GET',
          path: url.pathname,
          query: url.searchParams,
          signed,
          status,
          bytes: body.length,
        });
      void verify(req, url, body, signed, fake.open).then((refusal) => {
        if (refusal) {
          record(403);
          res.writeHead(403, { 'content-type': 'application/xml' });
          res.end(
            `<?xml version="1.0" encoding="UTF-8"?><Error><Code>${refusal.code}</Code><Message>${refusal.message}</Message></Error>`,
          );
          return;
        }
        if (req.method === 'PUT' && url.searchParams.has('uploadId') && req.headers['x-amz-copy-source']) {
          void copyPart(backendPort, req, url).then(({ status, answer }) => {
            record(status);
            res.writeHead(status, { 'content-type': 'application/xml' });
            res.end(answer);
          });
          return;
        }
        const forwarded = http.request(
          { host: '127.0.0.1', port: backendPort, method: req.method, path: req.url, headers: req.headers },
          (answer) => {
            record(answer.statusCode ?? 500);
            res.writeHead(answer.statusCode ?? 500, answer.headers);
            answer.pipe(res);
          },
        );
        forwarded.on('error', () => res.destroy());
        forwarded.end(body);
      });
    });
  });
  const port = await findFreePort();
  await new Promise<void>((resolve) => front.listen(port, '127.0.0.1', resolve));
  fake.endpoint = `http://127.0.0.1:${port}`;
  return fake;
}

/**
 * UploadPartCopy (a part of a multipart upload copied from a stored object, or a range of it), which
 * s3rver 3.7 does not implement: the front reads the source from s3rver and stores it as the part, and
 * answers as S3 does (CopyPartResult with the part's ETag; NoSuchKey for a missing source).
 */
async function copyPart(backendPort: number, req: http.IncomingMessage, url: URL): Promise<{ status: number; answer: string }> {
  const source = decodeURIComponent(String(req.headers['x-amz-copy-source'])).replace(/^\/?/, '/');
  const range = /^bytes=\d+-\d+$/.exec(String(req.headers['x-amz-copy-source-range'] ?? ''))?.[0];
  const read = await fetch(`http://127.0.0.1:${backendPort}${source.split('/').map(encodeURIComponent).join('/')}`, {
    headers: range ? { range } : {},
  });
  if (read.status !== 200 && read.status !== 206) {
    await read.body?.cancel();
    return { status: 404, answer: '<?xml version="1.0" encoding="UTF-8"?><Error><Code>NoSuchKey</Code></Error>' };
  }
  const part = await fetch(`http://127.0.0.1:${backendPort}${url.pathname}${url.search}`, {
    method: 'PUT',
    body: Buffer.from(await read.arrayBuffer()),
  });
  await part.body?.cancel();
  const etag = part.headers.get('etag') ?? '';
  return {
    status: part.status,
    answer: `<?xml version="1.0" encoding="UTF-8"?><CopyPartResult><LastModified>${new Date().toISOString()}</LastModified><ETag>${etag.replaceAll('"', '&quot;')}</ETag></CopyPartResult>`,
  };
}

interface Refusal {
  code: string;
  message: string;
}

const signer = new SignatureV4({
  credentials: { accessKeyId: FAKE_S3_ACCESS_KEY_ID, secretAccessKey: FAKE_S3_SECRET },
  region: FAKE_S3_REGION,
  service: 's3',
  sha256: Hash.bind(null, 'sha256'),
  // S3 signs the path as sent (already encoded), unlike other AWS services.
  uriEscapePath: false,
  applyChecksum: false,
});

async function verify(
  req: http.IncomingMessage,
  url: URL,
  body: Buffer,
  signed: RecordedS3Request['signed'],
  open: boolean,
): Promise<Refusal | undefined> {
  if (signed === 'none') {
    const read = req.method === 'GET' || req.method === 'HEAD';
    return open && read ? undefined : { code: 'AccessDenied', message: 'Access Denied' };
  }
  if (signed === 'header') return verifyHeader(req, url, body);
  return verifyQuery(req, url);
}

async function verifyHeader(req: http.IncomingMessage, url: URL, body: Buffer): Promise<Refusal | undefined> {
  const match = /^AWS4-HMAC-SHA256 Credential=([^,]+), ?SignedHeaders=([^,]+), ?Signature=([0-9a-f]{64})$/.exec(
    req.headers.authorization ?? '',
  );
  if (!match) return { code: 'AccessDenied', message: 'Malformed Authorization header' };
  const [, credential = '', signedHeaders = '', given = ''] = match;
  const declared = String(req.headers['x-amz-content-sha256'] ?? '');
  if (declared !== 'UNSIGNED-PAYLOAD' && declared !== createHash('sha256').update(body).digest('hex'))
    return {
      code: 'XAmzContentSHA256Mismatch',
      message: 'The provided x-amz-content-sha256 header does not match what was computed.',
    };
  const date = String(req.headers['x-amz-date'] ?? '');
  const request = signable(req, url, signedHeaders.split(';'));
  const expected = await signer.sign(request, { signingDate: parseAmzDate(date), signingRegion: credential.split('/')[2] ?? '' });
  const computed = /Signature=([0-9a-f]{64})/.exec(String(expected.headers.authorization))?.[1] ?? '';
  return sameText(computed, given) ? undefined : signatureMismatch();
}

async function verifyQuery(req: http.IncomingMessage, url: URL): Promise<Refusal | undefined> {
  const query = url.searchParams;
  const date = query.get('X-Amz-Date') ?? '';
  const expiresS = Number(query.get('X-Amz-Expires'));
  const signingDate = parseAmzDate(date);
  if (!Number.isFinite(expiresS) || Number.isNaN(signingDate.getTime()))
    return { code: 'AuthorizationQueryParametersError', message: 'Bad date' };
  if (signingDate.getTime() + expiresS * 1000 < Date.now()) return { code: 'AccessDenied', message: 'Request has expired' };
  // The presigner writes these itself; the payload's hash, which S3's presigner puts in the query as it
  // is, also goes to the signer as a header neither signed nor moved.
  const request = signable(req, url, (query.get('X-Amz-SignedHeaders') ?? 'host').split(';'), /^X-Amz-(?!Content-Sha256$)/);
  request.headers['x-amz-content-sha256'] = query.get('X-Amz-Content-Sha256') ?? 'UNSIGNED-PAYLOAD';
  const asIs = new Set(['x-amz-content-sha256']);
  const expected = await signer.presign(request, {
    signingDate,
    expiresIn: expiresS,
    unsignableHeaders: asIs,
    unhoistableHeaders: asIs,
    signingRegion: (query.get('X-Amz-Credential') ?? '').split('/')[2] ?? '',
  });
  return sameText(String(expected.query?.['X-Amz-Signature']), query.get('X-Amz-Signature') ?? '')
    ? undefined
    : signatureMismatch();
}

/** The request as the signer sees it: only the headers the client signed, the query less what is left out. */
function signable(req: http.IncomingMessage, url: URL, headerNames: string[], leaveOut?: RegExp) {
  const headers: Record<string, string> = {};
  for (const name of headerNames) headers[name] = String(req.headers[name] ?? '');
  const query: Record<string, string> = {};
  for (const [name, value] of url.searchParams) if (!leaveOut?.test(name)) query[name] = value;
  const [hostname = '', port] = (req.headers.host ?? '').split(':');
  return {
    method: req.method ?? 'GET',
    protocol: 'http:',
    hostname,
    ...(port ? { port: Number(port) } : {}),
    path: (req.url ?? '/').split('?')[0] ?? '/',
    query,
    headers,
  };
}

function parseAmzDate(value: string): Date {
  const match = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(value);
  if (!match) return new Date(Number.NaN);
  const [, y, mo, d, h, mi, s] = match.map(Number);
  return new Date(Date.UTC(y!, mo! - 1, d, h, mi, s));
}

function sameText(a: string, b: string): boolean {
  return a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));
}

function signatureMismatch(): Refusal {
  return {
    code: 'SignatureDoesNotMatch',
    message: 'The request signature we calculated does not match the signature you provided. Check your key and signing method.',
  };
}

/** The shop's settings for a fake S3's bucket, as a server's environment takes them. */
export function fakeS3Settings(fake: FakeS3): Record<string, string> {
  return {
    S3_BUCKET: fake.bucket,
    S3_ENDPOINT: fake.endpoint,
    S3_REGION: FAKE_S3_REGION,
    S3_ACCESS_KEY_ID: FAKE_S3_ACCESS_KEY_ID,
    S3_SECRET_ACCESS_KEY: FAKE_S3_SECRET,
    S3_FORCE_PATH_STYLE: 'true',
  };
}
