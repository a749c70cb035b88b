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

/** A file field read by `readMultipartFile`: its name as the browser gave it, and its bytes. */
export interface UploadedFile {
  fileName: string;
  bytes: Uint8Array;
}

/**
 * One file field of a multipart body of at most `maxBytes`, found in the body as it was read (its
 * bytes a view of the body, not a copy): a large upload is held once, where FormData would hold the
 * body, the parsed file and its copy. `file` is undefined when no file was chosen (an empty part) or
 * the form has no such field; a body that is no multipart form is a 400, as in readMultipart.
 */
export async function readMultipartFile(
  request: Request,
  name: string,
  maxBytes: number,
  tooLarge?: () => Response,
): Promise<BodyRead<{ file: UploadedFile | undefined }>> {
  const boundary = /^multipart\/form-data;.*?\bboundary=(?:"([^"]+)"|([^;\s]+))/i.exec(request.headers.get('content-type') ?? '');
  if (!boundary) return { response: errorResponse(415, 'unsupported_media_type', 'admin.courses.errors.notMultipart') };
  const read = await readBody(request, maxBytes, tooLarge);
  if ('response' in read) return read;
  const parts = multipartParts(
    Buffer.from(read.bytes.buffer, read.bytes.byteOffset, read.bytes.byteLength),
    boundary[1] ?? boundary[2]!,
  );
  if (!parts) return { response: errorResponse(400, 'invalid_form', 'errors.badRequest') };
  const part = parts.find((candidate) => candidate.name === name && candidate.fileName !== undefined);
  return { file: part && part.bytes.byteLength > 0 ? { fileName: part.fileName!, bytes: part.bytes } : undefined };
}

interface Part {
  name: string;
  fileName: string | undefined;
  bytes: Buffer;
}

/** Longer part headers than any browser sends. */
const MAX_PART_HEADERS = 8 * 1024;

/** The parts of a multipart/form-data body (RFC 7578), or undefined when it is not well formed. */
export function multipartParts(body: Buffer, boundary: string): Part[] | undefined {
  const delimiter = Buffer.from(`\r\n--${boundary}`);
  // The first delimiter has no line break before it (a preamble, which browsers never send, is skipped).
  let at = body.subarray(0, delimiter.length - 2).equals(delimiter.subarray(2)) ? -2 : body.indexOf(delimiter);
  const parts: Part[] = [];
  for (;;) {
    if (at === -1) return undefined;
    const after = at + delimiter.length;
    if (body.subarray(after, after + 2).toString('latin1') === '--') return parts;
    if (body.subarray(after, after + 2).toString('latin1') !== '\r\n') return undefined;
    const headersEnd = body.indexOf('\r\n\r\n', after + 2);
    if (headersEnd === -1 || headersEnd - after > MAX_PART_HEADERS) return undefined;
    const disposition = /^content-disposition:\s*form-data(.*)$/im.exec(
      body.subarray(after + 2, headersEnd).toString('utf8'),
    )?.[1];
    const name = disposition && /;\s*name="([^"]*)"/i.exec(disposition)?.[1];
    if (name === undefined || name === '') return undefined;
    const next = body.indexOf(delimiter, headersEnd + 4);
    if (next === -1) return undefined;
    parts.push({ name, fileName: /;\s*filename="([^"]*)"/i.exec(disposition!)?.[1], bytes: body.subarray(headersEnd + 4, next) });
    at = next;
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
