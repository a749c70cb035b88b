import type { APIRoute } from 'astro';
import { setFirstPassword } from '../../../../functions/account/account.ts';
import { SetPasswordRequestSchema } from '../../../lib/auth.schema.ts';
import { readJson, resultResponse } from '../../../lib/http.ts';
import { requireUser } from '../../../server/guards.ts';

export const prerender = false;

/** A first password for an account that signs in by e-mail link; one that has a password changes it with the old one. */
export const POST: APIRoute = async (context) => {
  const user = await requireUser(context);
  if (user instanceof Response) return user;
  const body = await readJson(context.request, SetPasswordRequestSchema);
  if ('response' in body) return body.response;
  const result = await setFirstPassword(user.id, body.data.newPassword, context.request.headers);
  return resultResponse(result, () => ({ ok: true }));
};
