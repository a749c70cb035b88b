import { errorResponse } from '../lib/http.ts';

/**
 * Reads a multipart/form-data body of at most `maxBytes`, counting what actually arrives (a missing
 * or false Content-Length changes nothing). Anything malformed or too large is a 400, never a 500.
 */
export async function readMultipart(request: Request, maxBytes: number): Promise<{ form: FormData } | { response: Response }> {
  const type = request.headers.get('content-type') ?? '';
  if (!/^multipart\/form-data;\s*boundary=/i.test(type))
    return { response: errorResponse(415, 'unsupported_media_type', 'admin.courses.errors.notMultipart') };
  const tooLarge = () => ({ response: errorResponse(400, 'upload_too_large', 'admin.courses.errors.uploadTooLarge') });
  if (Number(request.headers.get('content-length') ?? 0) > maxBytes) return tooLarge();
  const body = await readLimited(request, maxBytes);
  if (body === 'tooLarge') return tooLarge();
  if (!body) return { response: errorResponse(400, 'invalid_body', 'errors.badRequest') };
  try {
    return { form: await new Response(body, { headers: { 'content-type': type } }).formData() };
  } catch {
    return { response: errorResponse(400, 'invalid_multipart', 'errors.badRequest') };
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

async function readLimited(request: Request, maxBytes: number): Promise<Uint8Array<ArrayBuffer> | 'tooLarge' | undefined> {
  if (!request.body) return undefined;
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > maxBytes) {
        await reader.cancel().catch(() => {});
        return 'tooLarge';
      }
      chunks.push(value);
    }
  } catch {
    return undefined;
  }
  return Buffer.concat(chunks, total);
}
