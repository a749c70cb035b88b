import { siteOrigin } from '../../server/site.ts';
import type { APIRoute } from 'astro';
import { listPublishedPosts } from '../../../functions/blog/blog.ts';
import { getT } from '../../i18n/i18n.ts';
import { isLanguage, localizedPath } from '../../i18n/languages.ts';
import { shopSettings } from '../../../functions/shop/settings.ts';

export const prerender = false;

const escapeXml = (value: string) => value.replace(/[<>&'"]/g, (char) => `&#${char.charCodeAt(0)};`);

/** The blog of one language as RSS 2.0. */
export const GET: APIRoute = async ({ params }) => {
  const lang = params.lang;
  if (!isLanguage(lang)) return new Response('Not found', { status: 404 });
  const t = getT(lang);
  const origin = siteOrigin();
  const [posts, { shopName }] = await Promise.all([listPublishedPosts(lang), shopSettings()]);
  const link = (path: string) => escapeXml(new URL(localizedPath(lang, path), origin).href);
  const xml = `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom">
<channel>
<title>${escapeXml(`${shopName} ${t('blog.title')}`)}</title>
<link>${link('/blog')}</link>
<description>${escapeXml(t('blog.subtitle'))}</description>
<language>${lang}</language>
<atom:link href="${escapeXml(new URL(`/${lang}/rss.xml`, origin).href)}" rel="self" type="application/rss+xml"/>
${posts
  .map(
    (post) =>
      `<item><title>${escapeXml(post.title)}</title><link>${link(`/blog/${post.slug}`)}</link><guid isPermaLink="true">${link(`/blog/${post.slug}`)}</guid><pubDate>${post.date.toUTCString()}</pubDate><description>${escapeXml(post.excerpt)}</description></item>`,
  )
  .join('\n')}
</channel>
</rss>`;
  return new Response(xml, { headers: { 'Content-Type': 'application/rss+xml; charset=utf-8' } });
};
