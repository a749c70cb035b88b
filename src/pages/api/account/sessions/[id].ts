import type { APIRoute } from 'astro';
import { revokeSessionById } from '../../../../../functions/account/sessions.ts';
import { errorResponse } from '../../../../lib/http.ts';
import { z } from '../../../../lib/zod.ts';
import { requireUser } from '../../../../server/guards.ts';

export const prerender = false;

const SessionId = z.uuid();

/** Settings' "Sign out" beside one device: only the account's own sessions, named by id, never by token. */
export const DELETE: APIRoute = async (context) => {
  const user = await requireUser(context);
  if (user instanceof Response) return user;
  const id = SessionId.safeParse(context.params.id);
  if (!id.success || !(await revokeSessionById(user.id, id.data, context.request.headers)))
    return errorResponse(404, 'not_found', 'errors.notFound');
  return Response.json({ ok: true, current: id.data === user.sessionId }, { headers: { 'Cache-Control': 'no-store' } });
};
