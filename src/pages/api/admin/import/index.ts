import { uploadExport } from '../../../../../functions/imports/admin.ts';
import { errorResponse, resultResponse } from '../../../../lib/http.ts';
import { MAX_IMPORT_BYTES } from '../../../../lib/admin/import.schema.ts';
import { adminEndpoint } from '../../../../server/admin-endpoint.ts';
import { readMultipartFile } from '../../../../server/multipart.ts';

export const prerender = false;

/** Room for the multipart framing and the `form` field around the file. */
const FORM_OVERHEAD_BYTES = 16 * 1024;

/**
 * An export from Gumroad, Payhip or Lemon Squeezy (multipart: `file`): read as a dry run (rows,
 * products, buyers, problems per row) and kept until it is imported (`POST /api/admin/import/[id]`).
 */
export const POST = adminEndpoint(async ({ request }, admin) => {
  const read = await readMultipartFile(request, 'file', MAX_IMPORT_BYTES + FORM_OVERHEAD_BYTES, () =>
    errorResponse(413, 'upload_too_large', 'admin.import.errors.uploadTooLarge'),
  );
  if ('response' in read) return read.response;
  if (!read.file)
    return errorResponse(400, 'file_required', 'admin.import.errors.fileRequired', { file: 'admin.import.errors.fileRequired' });
  const { bytes, fileName } = read.file;
  return resultResponse(await uploadExport(bytes, fileName || 'export.csv', admin.id), (view) => ({ import: view }), 201);
});
