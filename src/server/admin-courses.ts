import type { CourseUploads } from '../../functions/courses/course-files.ts';
import {
  COURSE_FORM_FIELDS,
  CourseFormSchema,
  MAX_COVER_BYTES,
  MAX_PDF_BYTES,
  type CourseInput,
} from '../lib/admin/courses.schema.ts';
import { errorResponse } from '../lib/http.ts';
import { fieldErrors } from '../lib/validation.ts';
import { asLanguage, type Language } from '../i18n/languages.ts';
import { fileField, readMultipart, textFields } from './multipart.ts';

/** Room for the text fields and the multipart framing around the two files. */
const FORM_OVERHEAD_BYTES = 1024 * 1024;
export const MAX_COURSE_FORM_BYTES = MAX_PDF_BYTES + MAX_COVER_BYTES + FORM_OVERHEAD_BYTES;

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

/** Names in the admin's language (category names), from `?lang=`. */
export function adminLanguage(url: URL): Language {
  const lang = url.searchParams.get('lang');
  return asLanguage(lang);
}
