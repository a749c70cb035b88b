import { createBlogPost, listAllPosts } from '../../../../../functions/blog/admin.ts';
import { BlogPostSchema, POST_BODY_MAX_BYTES, SEARCH_MAX } from '../../../../lib/admin/blogs.schema.ts';
import { noStoreJson, readJson, resultResponse } from '../../../../lib/http.ts';
import { adminEndpoint } from '../../../../server/admin-endpoint.ts';
import { toAdminPost, toAdminPostRow } from '../../../../server/admin-content.ts';

export const prerender = false;

/** Posts of both languages, drafts and scheduled ones included, newest first; `?q=` searches title, author and slug. */
export const GET = adminEndpoint(async ({ url }) => {
  // Control characters (NUL included, which PostgreSQL refuses in text) never reach a query.
  const search = (url.searchParams.get('q') ?? '')
    .replace(/\p{Cc}/gu, ' ')
    .trim()
    .slice(0, SEARCH_MAX);
  const posts = await listAllPosts({ search });
  return noStoreJson({ posts: posts.map(toAdminPostRow) });
});

/** A slug taken in the post's language is refused at the slug field (409). */
export const POST = adminEndpoint(async ({ request }) => {
  const body = await readJson(request, BlogPostSchema, POST_BODY_MAX_BYTES);
  if ('response' in body) return body.response;
  return resultResponse(await createBlogPost(body.data), (post) => ({ post: toAdminPost(post) }), 201);
});
