import { siteOrigin } from '../server/site.ts';
import type { APIRoute } from 'astro';

export const prerender = false;

export const GET: APIRoute = () => {
  const origin = siteOrigin();
  const body = [
    'User-agent: *',
    'Disallow: /api/',
    'Disallow: /en/dashboard',
    'Disallow: /tr/dashboard',
    'Disallow: /en/admin',
    'Disallow: /tr/admin',
    'Disallow: /en/checkout',
    'Disallow: /tr/checkout',
    '',
    `Sitemap: ${new URL('/sitemap.xml', origin).href}`,
    '',
  ].join('\n');
  return new Response(body, {
    headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'public, max-age=3600' },
  });
};
