import { siteOrigin } from '../server/site.ts';
import type { APIRoute } from 'astro';
import { listActiveCourseIds } from '../../functions/catalogue/catalogue.ts';
import { listPublishedPosts } from '../../functions/blog/blog.ts';
import { LANGUAGES, localizedPath, type Language } from '../i18n/languages.ts';

export const prerender = false;

export const PUBLIC_PAGES = ['/', '/courses', '/blog', '/about', '/contact', '/privacy', '/terms', '/help', '/refund'];

interface SitemapEntry {
  /** The page's path in each language it exists in. */
  paths: Partial<Record<Language, string>>;
  lastModified?: Date | undefined;
}

/** Every public page in both languages, each with its alternates; blog articles pair with their translations. */
export const GET: APIRoute = async () => {
  const origin = siteOrigin();
  const [courses, ...postsByLanguage] = await Promise.all([
    listActiveCourseIds(),
    ...LANGUAGES.map((lang) => listPublishedPosts(lang)),
  ]);
  const both = (path: string) => Object.fromEntries(LANGUAGES.map((lang) => [lang, path]));
  const entries: SitemapEntry[] = [
    ...PUBLIC_PAGES.map((path) => ({ paths: both(path) })),
    ...courses.map((course) => ({ paths: both(`/course/${course.id}`), lastModified: course.updatedAt })),
    ...postsByLanguage.flat().map((post) => {
      const paths: Partial<Record<Language, string>> = { [post.language]: `/blog/${post.slug}` };
      for (const other of postsByLanguage.flat()) {
        if (post.translationKey && other.translationKey === post.translationKey) paths[other.language] = `/blog/${other.slug}`;
      }
      return { paths, lastModified: post.date };
    }),
  ];
  const href = (lang: Language, path: string) => new URL(localizedPath(lang, path), origin).href;
  const urls = entries.flatMap(({ paths, lastModified }) =>
    (Object.entries(paths) as [Language, string][]).map(([lang, path]) => {
      const alternates = (Object.entries(paths) as [Language, string][]).map(
        ([alt, altPath]) => `<xhtml:link rel="alternate" hreflang="${alt}" href="${href(alt, altPath)}"/>`,
      );
      const xDefault = paths.en ? `<xhtml:link rel="alternate" hreflang="x-default" href="${href('en', paths.en)}"/>` : '';
      return `<url><loc>${href(lang, path)}</loc>${lastModified ? `<lastmod>${lastModified.toISOString()}</lastmod>` : ''}${alternates.join('')}${xDefault}</url>`;
    }),
  );
  // A translated pair yields the same two URLs twice (once from each post): keep one of each.
  const xml = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">',
    ...new Set(urls),
    '</urlset>',
  ].join('\n');
  return new Response(xml, { headers: { 'Content-Type': 'application/xml; charset=utf-8' } });
};
