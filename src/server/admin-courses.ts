import type { CourseUploads, SaveCourseResult } from '../../functions/admin/courses.ts';
import {
  COURSE_FORM_FIELDS,
  CourseFormSchema,
  MAX_COVER_BYTES,
  MAX_PDF_BYTES,
  type CourseInput,
} from '../lib/admin/courses.schema.ts';
import { errorResponse } from '../lib/http.ts';
import { fieldErrors, type FieldErrors } from '../lib/validation.ts';
import { asLanguage, type Language } from '../i18n/languages.ts';
import type { MessageKey } from '../i18n/i18n.ts';
import { fileField, readMultipart, textFields } from './multipart.ts';

/** Room for the text fields and the multipart framing around the two files. */
const FORM_OVERHEAD_BYTES = 1024 * 1024;
export const MAX_COURSE_FORM_BYTES = MAX_PDF_BYTES + MAX_COVER_BYTES + FORM_OVERHEAD_BYTES;
const UPLOAD_FIELDS = ['pdf', 'cover'] as const;

export interface CourseForm {
  input: CourseInput;
  uploads: CourseUploads;
  /** A create's own id, chosen by the form, so a retried create cannot make a second course. */
  id: string | undefined;
}

/** The course form (multipart: text fields, `pdf`, `cover`) checked by the shared schema. */
export async function readCourseForm(request: Request): Promise<CourseForm | { response: Response }> {
  const read = await readMultipart(request, MAX_COURSE_FORM_BYTES);
  if ('response' in read) return read;
  const parsed = CourseFormSchema.safeParse(textFields(read.form, COURSE_FORM_FIELDS));
  if (!parsed.success) return { response: errorResponse(400, 'invalid_input', 'errors.badRequest', fieldErrors(parsed.error)) };
  const id = read.form.get('id');
  return {
    input: parsed.data,
    uploads: { pdf: await fileField(read.form, 'pdf'), cover: await fileField(read.form, 'cover') },
    id: typeof id === 'string' && id !== '' ? id : undefined,
  };
}

/** A refused save as HTTP: an upload problem is named in the message itself, so it reads clearly anywhere. */
export function saveFailure(result: Exclude<SaveCourseResult, { ok: true }>): Response {
  if (result.reason === 'notFound') return errorResponse(404, 'not_found', 'errors.notFound');
  if (result.reason === 'duplicate') return errorResponse(409, 'duplicate', 'admin.errors.duplicate');
  return errorResponse(400, 'invalid_input', firstUploadProblem(result.fields) ?? 'errors.badRequest', result.fields);
}

/** Names in the admin's language (category names), from `?lang=`. */
export function adminLanguage(url: URL): Language {
  const lang = url.searchParams.get('lang');
  return asLanguage(lang);
}

function firstUploadProblem(fields: FieldErrors): MessageKey | undefined {
  for (const name of UPLOAD_FIELDS) if (fields[name]) return fields[name];
  return undefined;
}
