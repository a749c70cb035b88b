import { takeFileVersion } from '../../../../../../functions/blog/admin.ts';
import { resultResponse } from '../../../../../lib/http.ts';
import { adminEndpoint } from '../../../../../server/admin-endpoint.ts';
import { toAdminPost } from '../../../../../server/admin-content.ts';

export const prerender = false;

/** "Take the file's version": the post gets its content/blog file's text back (409 when it has no file). */
export const POST = adminEndpoint(async ({ params }) =>
  resultResponse(await takeFileVersion(params.id ?? ''), (post) => ({ post: toAdminPost(post) })),
);
