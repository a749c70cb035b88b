import type { BetterAuthPlugin } from 'better-auth';
import { APIError, createAuthEndpoint, getSessionFromCtx } from 'better-auth/api';
import { expireCookie, setSessionCookie } from 'better-auth/cookies';
import type { AuthenticationResponseJSON } from '@simplewebauthn/server';
import { PasskeySignInRequestSchema } from '../../src/lib/auth.schema.ts';
import { authenticationOptions, verifyPasskeySignIn } from './passkeys.ts';
import { accountProvingSecondFactor, markSecondFactor } from './second-factor.ts';

/** better-auth's cookie for a password sign-in waiting on its second factor (the two-factor plugin's). */
const TWO_FACTOR_COOKIE = 'two_factor';

/**
 * "Sign in with a passkey" as a better-auth plugin, so the session is better-auth's own: made by its
 * internal adapter (its hooks run: the new-device mail) and its cookie set as every sign-in sets it.
 * A passkey verifies its user, so the session has passed a second factor. With a session already
 * (one begun by a sign-in link or OpenID, waiting on its second factor), the passkey proves that
 * session instead; a password sign-in waiting on its second factor finishes with the same account's
 * passkey.
 */
export function passkeySignIn() {
  return {
    id: 'shop-passkey',
    endpoints: {
      passkeySignInOptions: createAuthEndpoint('/passkey/sign-in-options', { method: 'POST' }, async (ctx) =>
        ctx.json(await authenticationOptions()),
      ),
      passkeySignIn: createAuthEndpoint('/passkey/sign-in', { method: 'POST', body: PasskeySignInRequestSchema }, async (ctx) => {
        const proved = await verifyPasskeySignIn({
          challengeId: ctx.body.challengeId,
          response: ctx.body.response as AuthenticationResponseJSON,
        });
        if (!proved) throw new APIError('UNAUTHORIZED', { code: 'PASSKEY_REFUSED', message: 'The passkey was not accepted' });

        const current = await getSessionFromCtx(ctx);
        if (current) {
          if (current.user.id !== proved.userId) throw otherAccount();
          await markSecondFactor(current.session.token, proved.userId);
          return ctx.json({ ok: true, signedIn: false });
        }
        const waiting = await accountProvingSecondFactor(ctx.headers?.get('cookie') ?? '');
        if (waiting && waiting !== proved.userId) throw otherAccount();

        const user = await ctx.context.internalAdapter.findUserById(proved.userId);
        if (!user) throw new APIError('UNAUTHORIZED', { code: 'PASSKEY_REFUSED', message: 'The passkey was not accepted' });
        const session = await ctx.context.internalAdapter.createSession(user.id);
        await setSessionCookie(ctx, { session, user });
        await markSecondFactor(session.token, user.id);
        if (waiting) expireCookie(ctx, ctx.context.createAuthCookie(TWO_FACTOR_COOKIE));
        return ctx.json({ ok: true, signedIn: true });
      }),
    },
  } satisfies BetterAuthPlugin;
}

function otherAccount(): APIError {
  return new APIError('FORBIDDEN', { code: 'PASSKEY_OTHER_ACCOUNT', message: 'The passkey belongs to another account' });
}
