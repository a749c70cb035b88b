import { reauthentication } from '../../functions/account/account.ts';
import { errorResponse } from '../lib/http.ts';

/**
 * A sensitive change's proof, as an answer: undefined when the owner proved it is them (the
 * password, or a fresh sign-in for an account without one), else the refusal at the password field.
 */
export async function reauthenticationRefusal(
  userId: string,
  password: string | undefined,
  headers: Headers,
): Promise<Response | undefined> {
  const proved = await reauthentication(userId, password, headers);
  if (proved === 'password_required')
    return errorResponse(400, 'invalid_input', 'errors.badRequest', { password: 'validation.currentPasswordRequired' });
  if (proved === 'wrong_password')
    return errorResponse(403, 'wrong_password', 'settings.wrongCurrentPassword', { password: 'settings.wrongCurrentPassword' });
  if (proved === 'sign_in_again') return errorResponse(403, 'sign_in_again', 'twoFactor.signInAgain');
  return undefined;
}
