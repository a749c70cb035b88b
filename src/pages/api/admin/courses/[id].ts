import { deleteCourse, getAdminCourse, updateCourse } from '../../../../../functions/courses/admin-courses.ts';
import { adminEndpoint } from '../../../../server/admin-endpoint.ts';
import { adminLanguage, readCourseForm } from '../../../../server/admin-courses.ts';
import { errorResponse, noStoreJson, resultResponse } from '../../../../lib/http.ts';

export const prerender = false;

export const GET = adminEndpoint(async ({ params, url }) => {
  const course = await getAdminCourse(params.id ?? '', adminLanguage(url));
  if (!course) return errorResponse(404, 'not_found', 'errors.notFound');
  return noStoreJson({ course });
});

/**
 * Changes a course: multipart form; a chosen PDF or cover replaces the stored one. Answers the course
 * and how many buyers "notify buyers" newly told of its current file version.
 */
export const PUT = adminEndpoint(async ({ params, request, url }) => {
  const form = await readCourseForm(request);
  if ('response' in form) return form.response;
  const result = await updateCourse(params.id ?? '', form.input, form.uploads, adminLanguage(url));
  return resultResponse(result, (saved) => saved);
});

/** Deletes a course nobody has bought; one with purchases answers 409 (deactivate it instead). */
export const DELETE = adminEndpoint(async ({ params }) =>
  resultResponse(await deleteCourse(params.id ?? ''), (deleted) => deleted),
);
