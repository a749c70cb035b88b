import type { APIRoute } from 'astro';
import { getFile } from '../../../functions/storage/storage.ts';
import { pacedBody } from '../../../functions/http/paced-body.ts';

export const prerender = false;

const TYPES: Record<string, string> = {
  svg: 'image/svg+xml',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
};

/** Public media (course covers). Keys carry a content hash, so they can be cached forever. */
export const GET: APIRoute = async ({ params }) => {
  const key = params.key ?? '';
  const type = TYPES[key.split('.').pop()?.toLowerCase() ?? ''];
  const file = type ? await getFile('public', key) : undefined;
  if (!type || !file) return new Response('Not found', { status: 404, headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
  return new Response(pacedBody(file.stream()), {
    headers: {
      'Content-Type': type,
      'Content-Length': String(file.size),
      'Cache-Control': 'public, max-age=31536000, immutable',
      'X-Content-Type-Options': 'nosniff',
      // An image opened on its own must never run anything.
      'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; object-src 'none'; base-uri 'none'; sandbox",
    },
  });
};
