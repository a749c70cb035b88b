import { consumeAll, LIMITS, targetKey, type LimitRule } from '../limits/limits.ts';
import { tooManyAttempts, type AuthRefusal } from './refusals.ts';

/** The endpoints that mail a link, the limits they spend, and the field naming the mailbox. */
const MAILING: Partial<Record<string, { client: LimitRule; target: 'email' | 'newEmail' }>> = {
  '/sign-up/email': { client: LIMITS.signUpPerClient, target: 'email' },
  '/sign-in/magic-link': { client: LIMITS.linkMailPerClient, target: 'email' },
  '/request-password-reset': { client: LIMITS.linkMailPerClient, target: 'email' },
  '/send-verification-email': { client: LIMITS.linkMailPerClient, target: 'email' },
  '/change-email': { client: LIMITS.linkMailPerClient, target: 'newEmail' },
};

/**
 * The shop's limits a request to better-auth spends before better-auth sees it: whatever mails a link
 * (per client, per mailbox) and the passkey ceremonies (per client; their options keep a challenge row).
 */
export async function endpointLimitRefusal(
  path: string,
  fields: Record<string, unknown>,
  ip: string,
): Promise<AuthRefusal | undefined> {
  return (await mailLimitRefusal(path, fields, ip)) ?? (await passkeyLimitRefusal(path, ip));
}

async function mailLimitRefusal(path: string, fields: Record<string, unknown>, ip: string): Promise<AuthRefusal | undefined> {
  const mailing = MAILING[path];
  if (!mailing) return undefined;
  const target = targetKey(String(fields[mailing.target]));
  const verdict = await consumeAll([
    [mailing.client, ip],
    [LIMITS.linkMailPerAddress, `${path}:${target}`],
  ]);
  if (verdict.allowed) return undefined;
  return tooManyAttempts(verdict.retryAfterS, path === '/sign-up/email' ? 'errors.tooManyRequests' : 'errors.linkRecentlySent');
}

async function passkeyLimitRefusal(path: string, ip: string): Promise<AuthRefusal | undefined> {
  if (!path.startsWith('/passkey/')) return undefined;
  const rule = path === '/passkey/sign-in' ? LIMITS.passkeySignInPerClient : LIMITS.passkeyOptionsPerClient;
  const verdict = await consumeAll([[rule, ip]]);
  return verdict.allowed ? undefined : tooManyAttempts(verdict.retryAfterS);
}
