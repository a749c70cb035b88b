import { deleteCourse, getAdminCourse, updateCourse } from '../../../../../functions/admin/courses.ts';
import { adminEndpoint } from '../../../../server/admin-endpoint.ts';
import { adminLanguage, readCourseForm, saveFailure } from '../../../../server/admin-courses.ts';
import { errorResponse } from '../../../../lib/http.ts';

export const prerender = false;

const NO_STORE = { 'Cache-Control': 'private, no-store' };

export const GET = adminEndpoint(async ({ params, url }) => {
  const course = await getAdminCourse(params.id ?? '', adminLanguage(url));
  if (!course) return errorResponse(404, 'not_found', 'errors.notFound');
  return Response.json({ course }, { headers: NO_STORE });
});

/** Changes a course: multipart form; a chosen PDF or cover replaces the stored one. */
export const PUT = adminEndpoint(async ({ params, request, url }) => {
  const form = await readCourseForm(request);
  if ('response' in form) return form.response;
  const result = await updateCourse(params.id ?? '', form.input, form.uploads, adminLanguage(url));
  if (!result.ok) return saveFailure(result);
  return Response.json({ course: result.course }, { headers: NO_STORE });
});

/** Deletes a course nobody has bought; one with purchases answers 409 (deactivate it instead). */
export const DELETE = adminEndpoint(async ({ params }) => {
  const result = await deleteCourse(params.id ?? '');
  if (result.ok) return Response.json({ deleted: true }, { headers: NO_STORE });
  if (result.reason === 'hasPurchases') return errorResponse(409, 'dependencies', 'admin.errors.dependencies');
  return errorResponse(404, 'not_found', 'errors.notFound');
});
