import { createCourse, listAdminCourses } from '../../../../../functions/admin/courses.ts';
import { adminEndpoint } from '../../../../server/admin-endpoint.ts';
import { adminLanguage, readCourseForm, saveFailure } from '../../../../server/admin-courses.ts';
import { parseAdminCourseQuery } from '../../../../lib/admin/courses.schema.ts';

export const prerender = false;

const NO_STORE = { 'Cache-Control': 'private, no-store' };

/** Every course in every language, newest first, with an optional Turkish-aware search. */
export const GET = adminEndpoint(async ({ url }) => {
  const page = await listAdminCourses(parseAdminCourseQuery(url.searchParams), adminLanguage(url));
  return Response.json(page, { headers: NO_STORE });
});

/** A new course: multipart form with its PDF (required) and an optional cover image. */
export const POST = adminEndpoint(async ({ request, url }) => {
  const form = await readCourseForm(request);
  if ('response' in form) return form.response;
  const result = await createCourse(form.input, form.uploads, adminLanguage(url), form.id);
  if (!result.ok) return saveFailure(result);
  return Response.json({ course: result.course }, { status: 201, headers: NO_STORE });
});
