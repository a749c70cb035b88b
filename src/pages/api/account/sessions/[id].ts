import type { APIRoute } from 'astro';
import { revokeSessionById } from '../../../../../functions/account/sessions.ts';
import { errorResponse, noStoreJson } from '../../../../lib/http.ts';
import { requireUser } from '../../../../server/guards.ts';
import { isUuid } from '../../../../lib/uuid.ts';

export const prerender = false;

/** Settings' "Sign out" beside one device: only the account's own sessions, named by id, never by token. */
export const DELETE: APIRoute = async (context) => {
  const user = await requireUser(context);
  if (user instanceof Response) return user;
  const id = context.params.id;
  if (!isUuid(id) || !(await revokeSessionById(user.id, id, context.request.headers)))
    return errorResponse(404, 'not_found', 'errors.notFound');
  return noStoreJson({ ok: true, current: id === user.sessionId });
};
