import type { APIRoute } from 'astro';
import { z } from '../../lib/zod.ts';
import { isResetTokenValid, resetPasswordAndSignIn } from '../../../functions/auth/password-reset.ts';
import { ResetPasswordSchema } from '../../lib/auth.schema.ts';
import { errorResponse, NO_STORE, noStoreJson, readJson } from '../../lib/http.ts';

export const prerender = false;

const TokenSchema = z.string().regex(/^[\w-]{1,200}$/);

/** Whether a reset link still works: the page's "checking" step. */
export const GET: APIRoute = async ({ url }) => {
  const token = TokenSchema.safeParse(url.searchParams.get('token'));
  const valid = token.success && (await isResetTokenValid(token.data));
  return noStoreJson({ valid });
};

/** Sets the new password and signs the user in. */
export const POST: APIRoute = async ({ request }) => {
  const body = await readJson(request, ResetPasswordSchema.and(z.object({ token: TokenSchema })));
  if ('response' in body) return body.response;
  const result = await resetPasswordAndSignIn(body.data.token, body.data.password, request.headers);
  if (!result.ok) return errorResponse(400, 'invalid_token', 'reset.invalidTitle');
  const headers = new Headers(NO_STORE);
  for (const cookie of result.setCookies) headers.append('Set-Cookie', cookie);
  return Response.json({ ok: true, twoFactor: result.twoFactor }, { headers });
};
