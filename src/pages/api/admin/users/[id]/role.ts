import { z } from 'zod';
import { setUserRole } from '../../../../../../functions/admin/users.ts';
import { RoleChangeSchema } from '../../../../../lib/admin/people.schema.ts';
import { errorResponse, readJson } from '../../../../../lib/http.ts';
import { adminEndpoint } from '../../../../../server/admin-endpoint.ts';

export const prerender = false;

/** Promote to admin or demote to user. Never one's own role: the server refuses, whatever the page shows. */
export const PATCH = adminEndpoint(async (context, admin) => {
  const id = z.uuid().safeParse(context.params.id);
  if (!id.success) return errorResponse(404, 'not_found', 'errors.notFound');
  const body = await readJson(context.request, RoleChangeSchema);
  if ('response' in body) return body.response;
  const outcome = await setUserRole(admin.id, id.data, body.data.role);
  if (outcome === 'self') return errorResponse(400, 'own_role', 'admin.people.users.ownRole');
  if (outcome === 'not_found') return errorResponse(404, 'not_found', 'errors.notFound');
  return Response.json({ id: id.data, role: body.data.role }, { headers: { 'Cache-Control': 'no-store' } });
});
