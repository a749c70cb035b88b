import { siteOrigin } from '../server/site.ts';
import type { APIRoute } from 'astro';
import { LANGUAGES } from '../i18n/languages.ts';

export const prerender = false;

export const GET: APIRoute = () => {
  const origin = siteOrigin();
  const body = [
    'User-agent: *',
    'Disallow: /api/',
    ...LANGUAGES.flatMap((lang) => [`Disallow: /${lang}/dashboard`, `Disallow: /${lang}/admin`]),
    // A checkout page itself stays crawlable so search engines read its canonical (the course page,
    // decision 25); what follows a payment never is.
    ...LANGUAGES.flatMap((lang) => ['success', 'sent', 'demo/'].map((step) => `Disallow: /${lang}/checkout/${step}`)),
    '',
    `Sitemap: ${new URL('/sitemap.xml', origin).href}`,
    '',
  ].join('\n');
  return new Response(body, {
    headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'public, max-age=3600' },
  });
};
