import { errorResponse, readBody, type BodyRead } from '../lib/http.ts';

/**
 * Reads a multipart/form-data body of at most `maxBytes` through readBody (refused on its declared
 * length, then counted as it arrives). Anything malformed is a 400, too large a 413 (`tooLarge` words
 * it for its form), never a 500.
 */
export async function readMultipart(
  request: Request,
  maxBytes: number,
  tooLarge = () => errorResponse(413, 'upload_too_large', 'admin.courses.errors.uploadTooLarge'),
): Promise<BodyRead<{ form: FormData }>> {
  const type = request.headers.get('content-type') ?? '';
  if (!/^multipart\/form-data;\s*boundary=/i.test(type))
    return { response: errorResponse(415, 'unsupported_media_type', 'admin.courses.errors.notMultipart') };
  return readForm(request, maxBytes, tooLarge);
}

/** A form body (multipart or URL-encoded) of at most `maxBytes`; malformed is a 400. */
export async function readForm(
  request: Request,
  maxBytes: number,
  tooLarge?: () => Response,
): Promise<BodyRead<{ form: FormData }>> {
  const read = await readBody(request, maxBytes, tooLarge);
  if ('response' in read) return read;
  const type = request.headers.get('content-type') ?? '';
  try {
    return { form: await new Response(read.bytes, { headers: { 'content-type': type } }).formData() };
  } catch {
    return { response: errorResponse(400, 'invalid_form', 'errors.badRequest') };
  }
}

/** The bytes of a file field, or undefined when none was chosen (browsers send an empty part). */
export async function fileField(form: FormData, name: string): Promise<Uint8Array | undefined> {
  const value = form.get(name);
  if (!(value instanceof Blob) || value.size === 0) return undefined;
  return new Uint8Array(await value.arrayBuffer());
}

/** The text fields of a form, by name; files and repeated names are ignored. */
export function textFields(form: FormData, names: readonly string[]): Record<string, string | undefined> {
  return Object.fromEntries(
    names.map((name) => {
      const value = form.get(name);
      return [name, typeof value === 'string' ? value : undefined];
    }),
  );
}
