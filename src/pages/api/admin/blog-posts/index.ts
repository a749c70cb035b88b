import { createBlogPost, listAllDatabasePosts } from '../../../../../functions/blog/blog.ts';
import { BlogPostSchema, SEARCH_MAX } from '../../../../lib/admin/blogs.schema.ts';
import { readJson } from '../../../../lib/http.ts';
import { adminEndpoint } from '../../../../server/admin-endpoint.ts';
import { duplicateAt, noStore, toAdminPost, toAdminPostRow } from '../../../../server/admin-content.ts';

export const prerender = false;

/** Database posts of both languages, drafts included, newest first; `?q=` searches title, author and slug. */
export const GET = adminEndpoint(async ({ url }) => {
  // Control characters (NUL included, which PostgreSQL refuses in text) never reach a query.
  const search = (url.searchParams.get('q') ?? '')
    .replace(/\p{Cc}/gu, ' ')
    .trim()
    .slice(0, SEARCH_MAX);
  const posts = await listAllDatabasePosts({ search });
  return Response.json({ posts: posts.map(toAdminPostRow) }, { headers: noStore });
});

export const POST = adminEndpoint(async ({ request }) => {
  const body = await readJson(request, BlogPostSchema);
  if ('response' in body) return body.response;
  try {
    const post = await createBlogPost(body.data);
    return Response.json({ post: toAdminPost(post) }, { status: 201, headers: noStore });
  } catch (error) {
    const conflict = duplicateAt(error, 'slug');
    if (conflict) return conflict;
    throw error;
  }
});
