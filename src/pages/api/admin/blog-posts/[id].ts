import { deleteBlogPost, getPost, setBlogPostPublished, updateBlogPost } from '../../../../../functions/blog/admin.ts';
import { BlogPostSchema, BlogPublishedSchema, POST_BODY_MAX_BYTES } from '../../../../lib/admin/blogs.schema.ts';
import { errorResponse, noStoreJson, readJson, resultResponse } from '../../../../lib/http.ts';
import { adminEndpoint } from '../../../../server/admin-endpoint.ts';
import { toAdminPost, toAdminPostRow } from '../../../../server/admin-content.ts';

export const prerender = false;

/** One post, in full, for the editor. Unknown and malformed ids are both 404. */
export const GET = adminEndpoint(async ({ params }) => {
  const post = await getPost(params.id ?? '');
  return post ? noStoreJson({ post: toAdminPost(post) }) : errorResponse(404, 'not_found', 'errors.notFound');
});

export const PUT = adminEndpoint(async ({ params, request }) => {
  const body = await readJson(request, BlogPostSchema, POST_BODY_MAX_BYTES);
  if ('response' in body) return body.response;
  return resultResponse(await updateBlogPost(params.id ?? '', body.data), (post) => ({ post: toAdminPost(post) }));
});

/** Published ⇄ draft. */
export const PATCH = adminEndpoint(async ({ params, request }) => {
  const body = await readJson(request, BlogPublishedSchema);
  if ('response' in body) return body.response;
  return resultResponse(await setBlogPostPublished(params.id ?? '', body.data.published), (post) => ({
    post: toAdminPostRow(post),
  }));
});

export const DELETE = adminEndpoint(async ({ params }) =>
  resultResponse(await deleteBlogPost(params.id ?? ''), (deleted) => deleted),
);
