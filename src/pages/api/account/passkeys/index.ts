import type { APIRoute } from 'astro';
import type { RegistrationResponseJSON } from '@simplewebauthn/server';
import { registerPasskey } from '../../../../../functions/auth/passkeys.ts';
import { sendSecurityNotice } from '../../../../../functions/account/security-notices.ts';
import { db } from '../../../../../functions/db/database.ts';
import { RegisterPasskeyRequestSchema } from '../../../../lib/auth.schema.ts';
import { errorResponse, noStoreJson, readJson } from '../../../../lib/http.ts';
import { requireUser } from '../../../../server/guards.ts';

export const prerender = false;

/**
 * Settings' "Add a passkey", second step: the authenticator's answer to this session's challenge.
 * The passkey is kept under the name its owner gave it, and the owner is told by mail.
 */
export const POST: APIRoute = async (context) => {
  const user = await requireUser(context);
  if (user instanceof Response) return user;
  const body = await readJson(context.request, RegisterPasskeyRequestSchema);
  if ('response' in body) return body.response;
  const outcome = await registerPasskey(user.id, user.sessionId, {
    challengeId: body.data.challengeId,
    name: body.data.name,
    response: body.data.response as RegistrationResponseJSON,
  });
  if (!outcome.ok) {
    if (outcome.reason === 'challenge') return errorResponse(400, 'challenge_expired', 'passkeys.expired');
    if (outcome.reason === 'duplicate') return errorResponse(409, 'passkey_exists', 'passkeys.alreadyAdded');
    return errorResponse(400, 'passkey_invalid', 'passkeys.addFailed');
  }
  await sendSecurityNotice(db(), user.id, 'passkey-added', {
    userAgent: context.request.headers.get('user-agent'),
    passkeyName: outcome.passkey.name,
  });
  return noStoreJson({ passkey: outcome.passkey }, 201);
};
