import { createCourse, listAdminCourses } from '../../../../../functions/courses/admin-courses.ts';
import { adminEndpoint } from '../../../../server/admin-endpoint.ts';
import { adminLanguage, readCourseForm } from '../../../../server/admin-courses.ts';
import { noStoreJson, resultResponse } from '../../../../lib/http.ts';
import { parseAdminCourseQuery } from '../../../../lib/admin/courses.schema.ts';

export const prerender = false;

/** Every course in every language, newest first, with an optional Turkish-aware search. */
export const GET = adminEndpoint(async ({ url }) => {
  const page = await listAdminCourses(parseAdminCourseQuery(url.searchParams), adminLanguage(url));
  return noStoreJson(page);
});

/** A new course: multipart form with its PDF (required) and an optional cover image. */
export const POST = adminEndpoint(async ({ request, url }) => {
  const form = await readCourseForm(request);
  if ('response' in form) return form.response;
  const result = await createCourse(form.input, form.uploads, adminLanguage(url), form.id);
  return resultResponse(result, (course) => ({ course }), 201);
});
