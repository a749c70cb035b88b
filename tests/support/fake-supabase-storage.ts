import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { findFreePort } from '../../functions/db/embedded.ts';

export const FAKE_SUPABASE_KEY = 'fake-service-role-key-for-tests-0123456789';

export interface StoredObject {
  bytes: Buffer;
  contentType: string;
  cacheControl: string | undefined;
  updatedAt: Date;
}

export interface RecordedStorageRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
}

/**
 * A local HTTP fake of the Supabase Storage API (the real service is out of reach here): object
 * upload (POST/PUT), authenticated download, public download for public buckets, bulk delete and
 * listing a folder (files with their dates, subfolders as entries without an id, paged),
 * answering errors the way Supabase does (a missing object is a 400 whose body says 404).
 */
export async function startFakeSupabaseStorage({
  buckets = { public: true, 'course-files': false },
}: { buckets?: Record<string, boolean> } = {}) {
  const objects = new Map<string, StoredObject>();
  const requests: RecordedStorageRequest[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const url = new URL(req.url ?? '/', 'http://fake');
      const method = req.method ?? 'GET';
      requests.push({ method, path: url.pathname, headers: req.headers });
      const send = (status: number, payload: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(payload));
      };
      const fail = (status: number, statusCode: string, error: string, message: string) =>
        send(status, { statusCode, error, message });
      const parts = url.pathname.split('/').filter(Boolean).map(decodeURIComponent);
      if (parts[0] !== 'storage' || parts[1] !== 'v1' || parts[2] !== 'object')
        return fail(404, '404', 'not_found', 'Route not found');

      if (method === 'GET' && parts[3] === 'public') {
        const [bucket = '', ...key] = parts.slice(4);
        const object = buckets[bucket] ? objects.get(`${bucket}/${key.join('/')}`) : undefined;
        if (!object) return fail(400, '404', 'not_found', 'Object not found');
        res.writeHead(200, {
          'content-type': object.contentType,
          'content-length': object.bytes.length,
          'cache-control': object.cacheControl ?? 'no-cache',
        });
        return res.end(object.bytes);
      }

      const authorized = req.headers.authorization === `Bearer ${FAKE_SUPABASE_KEY}` && req.headers.apikey === FAKE_SUPABASE_KEY;
      if (!authorized) return fail(400, '403', 'Unauthorized', 'invalid signature');
      if (method === 'POST' && parts[3] === 'list') {
        const listed = parts[4] ?? '';
        if (!(listed in buckets)) return fail(400, '404', 'Bucket not found', 'Bucket not found');
        const {
          prefix = '',
          limit = 100,
          offset = 0,
        } = JSON.parse(body.toString() || '{}') as { prefix?: string; limit?: number; offset?: number };
        const folder = `${listed}/${prefix.replace(/\/+$/, '')}/`;
        const entries = new Map<string, unknown>();
        for (const [id, object] of objects) {
          if (!id.startsWith(folder)) continue;
          const [name = '', ...deeper] = id.slice(folder.length).split('/');
          const when = object.updatedAt.toISOString();
          entries.set(
            name,
            deeper.length
              ? { name, id: null, updated_at: null, created_at: null, last_accessed_at: null, metadata: null }
              : { name, id: randomUUID(), updated_at: when, created_at: when, last_accessed_at: when, metadata: {} },
          );
        }
        const sorted = [...entries.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([, entry]) => entry);
        return send(200, sorted.slice(offset, offset + limit));
      }
      const [bucket = '', ...keyParts] = parts.slice(3);
      const key = keyParts.join('/');
      if (!(bucket in buckets)) return fail(400, '404', 'Bucket not found', 'Bucket not found');

      if ((method === 'POST' || method === 'PUT') && key) {
        const id = `${bucket}/${key}`;
        if (method === 'POST' && objects.has(id) && req.headers['x-upsert'] !== 'true')
          return fail(400, '409', 'Duplicate', 'The resource already exists');
        objects.set(id, {
          bytes: body,
          contentType: String(req.headers['content-type'] ?? 'application/octet-stream'),
          cacheControl: req.headers['cache-control'],
          updatedAt: new Date(),
        });
        return send(200, { Id: randomUUID(), Key: id });
      }
      if (method === 'GET' && key) {
        const object = objects.get(`${bucket}/${key}`);
        if (!object) return fail(400, '404', 'not_found', 'Object not found');
        res.writeHead(200, { 'content-type': object.contentType, 'content-length': object.bytes.length });
        return res.end(object.bytes);
      }
      if (method === 'DELETE' && !key) {
        const { prefixes = [] } = JSON.parse(body.toString() || '{}') as { prefixes?: string[] };
        const removed = prefixes
          .filter((prefix) => objects.delete(`${bucket}/${prefix}`))
          .map((name) => ({ name, bucket_id: bucket }));
        return send(200, removed);
      }
      return fail(400, '400', 'invalid_request', `Unsupported: ${method} ${url.pathname}`);
    });
  });
  const port = await findFreePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${port}`,
    objects,
    requests,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
