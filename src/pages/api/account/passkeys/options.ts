import type { APIRoute } from 'astro';
import { consumeAll, LIMITS } from '../../../../../functions/limits/limits.ts';
import { hasVerifiedEmail, registrationOptions } from '../../../../../functions/auth/passkeys.ts';
import { PasskeyOptionsRequestSchema } from '../../../../lib/auth.schema.ts';
import { errorResponse, noStoreJson, readJson, tooManyRequests } from '../../../../lib/http.ts';
import { requireUser } from '../../../../server/guards.ts';
import { reauthenticationRefusal } from '../../../../server/reauthentication.ts';

export const prerender = false;

/**
 * Settings' "Add a passkey", first step: the owner proves it is them (the password, or a fresh
 * sign-in for an account without one), then gets the options for their authenticator, bound to
 * this session by a challenge the server keeps.
 */
export const POST: APIRoute = async (context) => {
  const user = await requireUser(context);
  if (user instanceof Response) return user;
  const body = await readJson(context.request, PasskeyOptionsRequestSchema);
  if ('response' in body) return body.response;
  const verdict = await consumeAll([[LIMITS.passkeyChangesPerAccount, user.id]]);
  if (!verdict.allowed) return tooManyRequests(verdict.retryAfterS);
  const refusal = await reauthenticationRefusal(user.id, body.data.password, context.request.headers);
  if (refusal) return refusal;
  // An account that has not proved its address may not be its owner's (decision 13): a passkey
  // added now would outlive the owner's first sign-in link, which takes every other way in back.
  if (!(await hasVerifiedEmail(user.id))) return errorResponse(403, 'unverified_email', 'passkeys.verifyFirst');
  const options = await registrationOptions(user, user.sessionId);
  return noStoreJson(options);
};
