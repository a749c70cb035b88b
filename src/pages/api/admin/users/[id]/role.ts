import { setUserRole } from '../../../../../../functions/admin/users.ts';
import { RoleChangeSchema } from '../../../../../lib/admin/users.schema.ts';
import { readJson, resultResponse } from '../../../../../lib/http.ts';
import { adminEndpoint } from '../../../../../server/admin-endpoint.ts';

export const prerender = false;

/** Promote to admin or demote to user. Never one's own role: the server refuses, whatever the page shows. */
export const PATCH = adminEndpoint(async (context, admin) => {
  const body = await readJson(context.request, RoleChangeSchema);
  if ('response' in body) return body.response;
  return resultResponse(await setUserRole(admin.id, context.params.id ?? '', body.data.role), (changed) => changed);
});
