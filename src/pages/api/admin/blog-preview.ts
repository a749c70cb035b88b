import { renderPostContent } from '../../../../functions/blog/render.ts';
import { BlogPreviewSchema, POST_BODY_MAX_BYTES } from '../../../lib/admin/blogs.schema.ts';
import { noStoreJson, readJson } from '../../../lib/http.ts';
import { adminEndpoint } from '../../../server/admin-endpoint.ts';

export const prerender = false;

/**
 * The editor's live preview, rendered by the same Markdown renderer and sanitizer as the public
 * article: what the admin sees is exactly what readers get, and the browser never trusts raw input.
 */
export const POST = adminEndpoint(async ({ request }) => {
  const body = await readJson(request, BlogPreviewSchema, POST_BODY_MAX_BYTES);
  if ('response' in body) return body.response;
  return noStoreJson({ html: renderPostContent(body.data.content) });
});
