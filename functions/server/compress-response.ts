import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);
const COMPRESSIBLE = /^(text\/|application\/(json|xml)|image\/svg)/;
const MIN_BYTES = 1024;

/**
 * Compresses a response body once. Used for responses the route cache keeps, so the cache stores
 * compressed bytes (one variant per Accept-Encoding, via Vary) and a hit costs no compression.
 */
export async function compressResponse(response: Response, acceptEncoding: string): Promise<Response> {
  const type = response.headers.get('content-type') ?? '';
  if (!response.body || response.headers.has('content-encoding') || !COMPRESSIBLE.test(type)) return response;
  const encoding = /\bbr\b/.test(acceptEncoding) ? 'br' : /\bgzip\b/.test(acceptEncoding) ? 'gzip' : undefined;
  const headers = new Headers(response.headers);
  headers.append('Vary', 'Accept-Encoding');
  const body = Buffer.from(await response.arrayBuffer());
  if (!encoding || body.length < MIN_BYTES) return new Response(body, { status: response.status, headers });
  const compressed =
    encoding === 'br' ? await brotli(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } }) : await gzipAsync(body);
  headers.set('Content-Encoding', encoding);
  headers.set('Content-Length', String(compressed.length));
  return new Response(compressed, { status: response.status, headers });
}
