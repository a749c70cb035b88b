import { setCourseActive } from '../../../../../../functions/admin/courses.ts';
import { adminEndpoint } from '../../../../../server/admin-endpoint.ts';
import { CourseStatusSchema } from '../../../../../lib/admin/courses.schema.ts';
import { errorResponse, readJson } from '../../../../../lib/http.ts';

export const prerender = false;

/** Activates or deactivates a course: `{ "isActive": true | false }`. */
export const PATCH = adminEndpoint(async ({ params, request }) => {
  const body = await readJson(request, CourseStatusSchema);
  if ('response' in body) return body.response;
  const id = params.id ?? '';
  if (!(await setCourseActive(id, body.data.isActive))) return errorResponse(404, 'not_found', 'errors.notFound');
  return Response.json({ course: { id, isActive: body.data.isActive } }, { headers: { 'Cache-Control': 'private, no-store' } });
});
