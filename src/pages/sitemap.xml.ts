import type { APIRoute } from 'astro';
import { listActiveCourseIds } from '../../functions/catalogue/catalogue.ts';
import { LANGUAGES, localizedPath } from '../i18n/languages.ts';

export const prerender = false;

export const PUBLIC_PAGES = ['/', '/courses', '/blog', '/about', '/contact', '/privacy', '/terms', '/help', '/refund'];

/** Every public page in both languages, each with its alternates. */
export const GET: APIRoute = async ({ site, url }) => {
  const origin = site ?? new URL(url.origin);
  const courses = await listActiveCourseIds();
  const entries = [
    ...PUBLIC_PAGES.map((path) => ({ path, lastModified: undefined })),
    ...courses.map((course) => ({ path: `/course/${course.id}`, lastModified: course.updatedAt })),
  ];
  const xml = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">',
    ...entries.flatMap(({ path, lastModified }) =>
      LANGUAGES.map((lang) =>
        [
          '<url>',
          `<loc>${new URL(localizedPath(lang, path), origin).href}</loc>`,
          lastModified ? `<lastmod>${lastModified.toISOString()}</lastmod>` : '',
          ...LANGUAGES.map((alt) => `<xhtml:link rel="alternate" hreflang="${alt}" href="${new URL(localizedPath(alt, path), origin).href}"/>`),
          `<xhtml:link rel="alternate" hreflang="x-default" href="${new URL(localizedPath('en', path), origin).href}"/>`,
          '</url>',
        ].join(''),
      ),
    ),
    '</urlset>',
  ].join('\n');
  return new Response(xml, { headers: { 'Content-Type': 'application/xml; charset=utf-8' } });
};
