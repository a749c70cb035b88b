import { admitSignInAttempt, settleSignInAttempt } from '../limits/sign-in-failures.ts';
import { auth } from './auth.ts';
import { tooManyAttempts, type AuthAnswer } from './refusals.ts';

/** A password sign-in, admitted by the failure backoff first and settled by its outcome after. */
export async function signInWithPassword(forwarded: Request, email: string, ip: string): Promise<AuthAnswer> {
  const attempt = await admitSignInAttempt(email, ip);
  if (!attempt.allowed) return { refusal: tooManyAttempts(attempt.retryAfterS) };
  try {
    const response = await auth().handler(forwarded);
    const outcome = response.status === 200 ? 'succeeded' : response.status === 401 ? 'failed' : 'other';
    await settleSignInAttempt(attempt.attemptId, email, ip, outcome);
    return { response };
  } catch (error) {
    await settleSignInAttempt(attempt.attemptId, email, ip, 'other');
    throw error;
  }
}
