import { storeBlogImage } from '../../../../functions/blog/images.ts';
import { BlogImageKindSchema } from '../../../lib/admin/blogs.schema.ts';
import { MAX_COVER_BYTES } from '../../../lib/admin/courses.schema.ts';
import { errorResponse, resultResponse } from '../../../lib/http.ts';
import { adminEndpoint } from '../../../server/admin-endpoint.ts';
import { fileField, readMultipart } from '../../../server/multipart.ts';

export const prerender = false;

/** Room for the multipart framing and the `kind` field around the image. */
const FORM_OVERHEAD_BYTES = 64 * 1024;

/**
 * A blog image (multipart: `image`, `kind` = cover | inline), checked by its bytes, resized and
 * stored; answers its URL and size for the editor to put in the cover field or the article.
 */
export const POST = adminEndpoint(async ({ request }) => {
  const read = await readMultipart(request, MAX_COVER_BYTES + FORM_OVERHEAD_BYTES);
  if ('response' in read) return read.response;
  const kind = BlogImageKindSchema.safeParse(read.form.get('kind'));
  if (!kind.success) return errorResponse(400, 'invalid_input', 'errors.badRequest', { kind: 'errors.badRequest' });
  const image = await fileField(read.form, 'image');
  if (!image)
    return errorResponse(400, 'invalid_image', 'admin.blogs.imageErrors.empty', { image: 'admin.blogs.imageErrors.empty' });
  return resultResponse(await storeBlogImage(image, kind.data), (stored) => ({ image: stored }), 201);
});
