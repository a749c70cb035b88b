import type { APIRoute } from 'astro';
import { removePasskey, renamePasskey } from '../../../../../functions/auth/passkeys.ts';
import { RemovePasskeyRequestSchema, RenamePasskeyRequestSchema } from '../../../../lib/auth.schema.ts';
import { errorResponse, noStoreJson, readJson, tooManyRequests } from '../../../../lib/http.ts';
import { consumeAll, LIMITS } from '../../../../../functions/limits/limits.ts';
import { requireUser } from '../../../../server/guards.ts';
import { reauthenticationRefusal } from '../../../../server/reauthentication.ts';
import { isUuid } from '../../../../lib/uuid.ts';

export const prerender = false;

/** Renames one of the account's own passkeys. */
export const PATCH: APIRoute = async (context) => {
  const user = await requireUser(context);
  if (user instanceof Response) return user;
  const id = context.params.id;
  if (!isUuid(id)) return errorResponse(404, 'not_found', 'errors.notFound');
  const body = await readJson(context.request, RenamePasskeyRequestSchema);
  if ('response' in body) return body.response;
  if (!(await renamePasskey(user.id, id, body.data.name))) return errorResponse(404, 'not_found', 'errors.notFound');
  return noStoreJson({ ok: true, name: body.data.name });
};

/** Removes one of the account's own passkeys, after re-authentication like the other sensitive changes. */
export const DELETE: APIRoute = async (context) => {
  const user = await requireUser(context);
  if (user instanceof Response) return user;
  const id = context.params.id;
  if (!isUuid(id)) return errorResponse(404, 'not_found', 'errors.notFound');
  const body = await readJson(context.request, RemovePasskeyRequestSchema);
  if ('response' in body) return body.response;
  const verdict = await consumeAll([[LIMITS.passkeyChangesPerAccount, user.id]]);
  if (!verdict.allowed) return tooManyRequests(verdict.retryAfterS);
  const refusal = await reauthenticationRefusal(user.id, body.data.password, context.request.headers);
  if (refusal) return refusal;
  if (!(await removePasskey(user.id, id))) return errorResponse(404, 'not_found', 'errors.notFound');
  return noStoreJson({ ok: true });
};
