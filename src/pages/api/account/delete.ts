import type { APIRoute } from 'astro';
import { deleteAccount, hasPassword, passwordMatches, sessionIsFresh } from '../../../../functions/account/account.ts';
import { DeleteAccountSchema } from '../../../lib/auth.schema.ts';
import { errorResponse, noStoreJson, readJson } from '../../../lib/http.ts';
import { requireUser } from '../../../server/guards.ts';

export const prerender = false;

/**
 * Deletes the signed-in account after re-authentication: its password, or for an account without one,
 * a session that began in the last 15 minutes (a fresh sign-in link).
 */
export const POST: APIRoute = async (context) => {
  const user = await requireUser(context);
  if (user instanceof Response) return user;
  const body = await readJson(context.request, DeleteAccountSchema);
  if ('response' in body) return body.response;
  if (await hasPassword(user.id)) {
    if (!(await passwordMatches(user.id, body.data.password))) {
      return errorResponse(403, 'wrong_password', 'settings.wrongCurrentPassword', { password: 'settings.wrongCurrentPassword' });
    }
  } else if (!(await sessionIsFresh(user.id, context.request.headers))) {
    return errorResponse(403, 'sign_in_again', 'settings.deleteSignInAgain');
  }
  await deleteAccount(user.id);
  return noStoreJson({ ok: true });
};
