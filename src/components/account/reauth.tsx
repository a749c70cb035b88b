import type { ApiFailure } from '../../lib/api-client.ts';

/** A re-authentication's wrong password is said at its field; the rest above the button. */
export function passwordFailure(result: ApiFailure): ApiFailure {
  return result.message === 'settings.wrongCurrentPassword' ? { ...result, fields: { password: result.message } } : result;
}
