import { setCourseActive } from '../../../../../../functions/courses/admin-courses.ts';
import { adminEndpoint } from '../../../../../server/admin-endpoint.ts';
import { CourseStatusSchema } from '../../../../../lib/admin/courses.schema.ts';
import { readJson, resultResponse } from '../../../../../lib/http.ts';

export const prerender = false;

/** Activates or deactivates a course: `{ "isActive": true | false }`. */
export const PATCH = adminEndpoint(async ({ params, request }) => {
  const body = await readJson(request, CourseStatusSchema);
  if ('response' in body) return body.response;
  return resultResponse(await setCourseActive(params.id ?? '', body.data.isActive), (course) => ({ course }));
});
