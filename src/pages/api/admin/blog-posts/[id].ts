import { deleteBlogPost, getDatabasePost, setBlogPostPublished, updateBlogPost } from '../../../../../functions/blog/blog.ts';
import { BlogPostSchema, BlogPublishedSchema } from '../../../../lib/admin/blogs.schema.ts';
import { errorResponse, readJson } from '../../../../lib/http.ts';
import { adminEndpoint } from '../../../../server/admin-endpoint.ts';
import { duplicateAt, noStore, toAdminPost, toAdminPostRow } from '../../../../server/admin-content.ts';

export const prerender = false;

const notFound = () => errorResponse(404, 'not_found', 'errors.notFound');

/** One post, in full, for the editor. Unknown and malformed ids are both 404. */
export const GET = adminEndpoint(async ({ params }) => {
  const post = await getDatabasePost(params.id ?? '');
  return post ? Response.json({ post: toAdminPost(post) }, { headers: noStore }) : notFound();
});

export const PUT = adminEndpoint(async ({ params, request }) => {
  const existing = await getDatabasePost(params.id ?? '');
  if (!existing) return notFound();
  const body = await readJson(request, BlogPostSchema);
  if ('response' in body) return body.response;
  try {
    const post = await updateBlogPost(existing.id, body.data);
    return post ? Response.json({ post: toAdminPost(post) }, { headers: noStore }) : notFound();
  } catch (error) {
    const conflict = duplicateAt(error, 'slug');
    if (conflict) return conflict;
    throw error;
  }
});

/** Published ⇄ draft. */
export const PATCH = adminEndpoint(async ({ params, request }) => {
  const existing = await getDatabasePost(params.id ?? '');
  if (!existing) return notFound();
  const body = await readJson(request, BlogPublishedSchema);
  if ('response' in body) return body.response;
  if (!(await setBlogPostPublished(existing.id, body.data.published))) return notFound();
  return Response.json({ post: toAdminPostRow({ ...existing, published: body.data.published }) }, { headers: noStore });
});

export const DELETE = adminEndpoint(async ({ params }) => {
  const existing = await getDatabasePost(params.id ?? '');
  if (!existing || !(await deleteBlogPost(existing.id))) return notFound();
  return Response.json({ deleted: true }, { headers: noStore });
});
