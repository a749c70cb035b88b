import { betterAuth } from 'better-auth';
import { magicLink } from 'better-auth/plugins/magic-link';
import { twoFactor } from 'better-auth/plugins/two-factor';
import { genericOAuth } from 'better-auth/plugins/generic-oauth';
import { createAuthMiddleware, getOAuthState } from 'better-auth/api';
import type { Db } from '../db/database.ts';
import { db } from '../db/database.ts';
import { env, siteUrl } from '../env.ts';
import { queueMail } from '../mail/outbox.ts';
import { renderMail } from '../mail/template.ts';
import { emailVerification, passwordReset, signInLink } from '../mail/templates/index.ts';
import { safeNextPath } from '../../src/lib/next-path.ts';
import { adoptDetachedPurchases } from '../orders/library.ts';
import { noteSignInDevice } from '../account/security-notices.ts';
import { AUTH_ENDPOINT_LIMITS, LIMITS, limitsEnabled } from '../limits/limits.ts';
import { passkeySignIn } from './passkey-sign-in.ts';
import { CLIENT_IP_HEADER } from './client-address.ts';
import { claimBySignInLink, SIGN_IN_LINK_TTL_S, signInLinkUrl, storedSignInToken } from './sign-in-link.ts';
import { claimAccount, claimByVerificationMail } from './claim.ts';
import { claimsOf, LINK_TOKEN_SLOT, RESET_TOKEN_TTL_S, VERIFY_TOKEN_TTL_S } from './link-tokens.ts';
import { asLanguage, DEFAULT_LANGUAGE, isLanguage, localizedPath } from '../../src/i18n/languages.ts';
import { genericOAuthConfig, identityProviders } from './identity-providers.ts';
import { MIN_PASSWORD_LENGTH, MAX_PASSWORD_LENGTH } from '../../src/lib/auth.schema.ts';

export const SESSION_TTL_S = 60 * 60 * 24 * 30;
/** A session in use is touched at most this often: Settings shows it as the session's last activity. */
export const SESSION_ACTIVITY_S = 15 * 60;
/** Minutes a password sign-in may wait for its second factor before it must start again. */
export const TWO_FACTOR_CHALLENGE_TTL_S = 10 * 60;

export type { Role } from '../../src/lib/admin/users.schema.ts';

function languageOf(user: object): ReturnType<typeof asLanguage> {
  return asLanguage((user as Record<string, unknown>).language);
}

export function createAuth(database: Db) {
  const { NODE_ENV, BETTER_AUTH_SECRET } = env();
  /** Accounts an OpenID sign-in has just made, until their identity row follows (same request). */
  const madeBySignInWithProvider = new Set<string>();
  const providers = identityProviders(env());
  return betterAuth({
    appName: 'MicroCourses',
    baseURL: siteUrl(),
    basePath: '/api/auth',
    secret: BETTER_AUTH_SECRET,
    database: { db: database, type: 'postgres' },
    user: {
      modelName: 'users',
      // The new address must answer the verification mail before it replaces the old one.
      changeEmail: { enabled: true },
      fields: { name: 'full_name', emailVerified: 'email_verified', createdAt: 'created_at', updatedAt: 'updated_at' },
      additionalFields: {
        language: { type: 'string', required: false, defaultValue: DEFAULT_LANGUAGE, input: true },
        // Never accepted from a request: only admin:create and the admin area change it.
        role: { type: 'string', required: false, defaultValue: 'user', input: false },
      },
    },
    session: {
      modelName: 'sessions',
      expiresIn: SESSION_TTL_S,
      updateAge: SESSION_ACTIVITY_S,
      fields: {
        expiresAt: 'expires_at',
        createdAt: 'created_at',
        updatedAt: 'updated_at',
        ipAddress: 'ip_address',
        userAgent: 'user_agent',
        userId: 'user_id',
      },
    },
    account: {
      modelName: 'accounts',
      // An OpenID identity joins an existing account only when the provider asserts that the address
      // is verified and it is the account's address (decision 22); never the last way to sign in is unlinked.
      accountLinking: {
        enabled: true,
        trustedProviders: [],
        allowDifferentEmails: false,
        allowUnlinkingAll: false,
        // A provider-verified address counts as proof for an account that had not proved it: the
        // account is claimed (its password, other identities and sessions go), as by a sign-in link.
        requireLocalEmailVerified: false,
      },
      fields: {
        accountId: 'account_id',
        providerId: 'provider_id',
        userId: 'user_id',
        accessToken: 'access_token',
        refreshToken: 'refresh_token',
        idToken: 'id_token',
        accessTokenExpiresAt: 'access_token_expires_at',
        refreshTokenExpiresAt: 'refresh_token_expires_at',
        createdAt: 'created_at',
        updatedAt: 'updated_at',
      },
    },
    verification: {
      modelName: 'verifications',
      fields: { expiresAt: 'expires_at', createdAt: 'created_at', updatedAt: 'updated_at' },
    },
    emailAndPassword: {
      enabled: true,
      minPasswordLength: MIN_PASSWORD_LENGTH,
      maxPasswordLength: MAX_PASSWORD_LENGTH,
      autoSignIn: true,
      resetPasswordTokenExpiresIn: RESET_TOKEN_TTL_S,
      revokeSessionsOnPasswordReset: true,
      // The reset link went to the mailbox: a password set through it proves the address (claim.ts).
      onPasswordReset: async ({ user }) => {
        await claimAccount(database, user.id, { password: true });
      },
      // The link opens our own page, which checks the token before showing the form.
      // better-auth's token is left to expire unused: the worker mints the link's token when the mail leaves.
      sendResetPassword: async ({ user }) => {
        const language = languageOf(user);
        const url = `${siteUrl()}/${language}/reset-password?token=${LINK_TOKEN_SLOT}`;
        const mail = await renderMail(passwordReset, { name: user.name || user.email, url }, { to: user.email, language });
        await queueMail(database, { ...mail, link: { kind: 'password_reset', userId: user.id } });
      },
    },
    // Sign-up sends it (the spec's "check your email to verify"); so does a change of address, to the new one.
    emailVerification: {
      sendOnSignUp: true,
      autoSignInAfterVerification: true,
      expiresIn: VERIFY_TOKEN_TTL_S,
      // Proving the address claims the account from whoever signed it up, unless that is the prover (claim.ts).
      beforeEmailVerification: (user, request) => claimByVerificationMail(database, user.id, request),
      sendVerificationEmail: async ({ user, url, token }) => {
        const language = languageOf(user);
        const link = new URL(url);
        link.searchParams.set('token', LINK_TOKEN_SLOT);
        const mail = await renderMail(
          emailVerification,
          { name: user.name || user.email, url: link.toString() },
          { to: user.email, language },
        );
        await queueMail(database, { ...mail, link: { kind: 'verify_email', claims: claimsOf(token) } });
      },
    },
    databaseHooks: {
      // A new account at an address gets back guest purchases a deleted, unproven account let go of.
      user: {
        create: {
          // An account made by an OpenID sign-in speaks the language of the page it started from.
          before: async (user) => {
            const state = await getOAuthState().catch(() => null);
            const language = state ? (state as Record<string, unknown>).language : undefined;
            return isLanguage(language) ? { data: { ...user, language } } : undefined;
          },
          after: async (user) => {
            if (await getOAuthState().catch(() => null)) madeBySignInWithProvider.add(user.id);
            await adoptDetachedPurchases(database, [{ id: user.id, email: user.email }]);
          },
        },
      },
      // An OpenID identity joins an existing account only for an address the provider verified
      // (decision 22): an account that had not proved it is claimed, keeping that identity (claim.ts).
      // The first identity of an account the sign-in just made proves nothing (its address may be unverified).
      account: {
        create: {
          after: async (account) => {
            if (account.providerId === 'credential' || madeBySignInWithProvider.delete(account.userId)) return;
            await claimAccount(database, account.userId, { accountId: account.id });
          },
        },
      },
      // A sign-in from a device the account has not used before mails its owner.
      session: { create: { after: (session) => noteSignInDevice(database, session.userId, session.userAgent) } },
    },
    hooks: {
      // A sign-in link proves its address before better-auth signs its holder in (sign-in-link.ts).
      before: createAuthMiddleware(async (ctx) => {
        if (ctx.path === '/magic-link/verify') await claimBySignInLink(database, String(ctx.query?.token ?? ''));
      }),
    },
    plugins: [
      // Sign-in with Google or another OpenID provider, when configured (identity-providers.ts).
      ...(providers.length > 0 ? [genericOAuth({ config: genericOAuthConfig(providers) })] : []),
      // Authenticator codes and backup codes; the admin area asks them of every session (second-factor.ts).
      twoFactor({
        // An account without a password (e-mail links only) proves itself by a fresh sign-in instead
        // (account-change-checks.ts asks it before enabling, disabling or renewing codes).
        allowPasswordless: true,
        twoFactorCookieMaxAge: TWO_FACTOR_CHALLENGE_TTL_S,
        // better-auth's lockout counts every source's wrong codes alike: at ten, one holder of the password
        // would lock the owner out. It stays only as a backstop at the shop's per-account cap (limits.ts).
        accountLockout: { enabled: true, maxFailedAttempts: LIMITS.secondFactorPerAccount.max, durationSeconds: 15 * 60 },
        backupCodeOptions: { amount: 10, length: 10, storeBackupCodes: 'encrypted' },
        schema: {
          user: { fields: { twoFactorEnabled: 'two_factor_enabled' } },
          twoFactor: {
            modelName: 'two_factors',
            fields: {
              userId: 'user_id',
              backupCodes: 'backup_codes',
              failedVerificationCount: 'failed_verification_count',
              lockedUntil: 'locked_until',
            },
          },
        },
      }),
      // "Sign in with a passkey" (WebAuthn, decision 0021): a better-auth session that passed a second factor.
      passkeySignIn(),
      magicLink({
        expiresIn: SIGN_IN_LINK_TTL_S,
        storeToken: { type: 'custom-hasher', hash: (token) => Promise.resolve(storedSignInToken(token)) },
        // A link signs in an existing account only; checkout is where accounts are made.
        disableSignUp: true,
        // The same answer whether or not the address has an account; only an account gets a mail.
        // The link is ours, built from the token: whatever the request asked, it lands on this site.
        sendMagicLink: async ({ email, url }) => {
          const user = await database
            .selectFrom('users')
            .select(['full_name', 'language'])
            .where('email', '=', email.trim().toLowerCase())
            .executeTakeFirst();
          if (!user) return;
          const language = asLanguage(user.language);
          const next = safeNextPath(new URL(url).searchParams.get('callbackURL'), localizedPath(language, '/dashboard/courses'));
          const link = signInLinkUrl(LINK_TOKEN_SLOT, language, next);
          const mail = await renderMail(signInLink, { name: user.full_name || email, url: link }, { to: email, language });
          await queueMail(database, { ...mail, link: { kind: 'sign_in', email: email.trim().toLowerCase() } });
        },
      }),
    ],
    // The shop's limits (functions/limits/limits.ts) run in the route before any of this; better-auth's
    // stays as the bound on every one of its endpoints (why: AUTH_ENDPOINT_LIMITS), on the same switch.
    rateLimit: {
      enabled: limitsEnabled(),
      storage: 'database',
      modelName: 'rate_limits',
      fields: { lastRequest: 'last_request' },
      ...AUTH_ENDPOINT_LIMITS.default,
      customRules: AUTH_ENDPOINT_LIMITS.paths,
    },
    advanced: {
      // better-auth skips its callback-URL and origin checks under NODE_ENV=test; tests check what ships.
      disableOriginCheck: false,
      ipAddress: { ipAddressHeaders: [CLIENT_IP_HEADER] },
      useSecureCookies: NODE_ENV === 'production',
      defaultCookieAttributes: { httpOnly: true, sameSite: 'lax' },
      database: { generateId: 'uuid' },
    },
    trustedOrigins: [siteUrl()],
  });
}

export type Auth = ReturnType<typeof createAuth>;

let shared: Auth | undefined;

/** The process-wide auth instance on the shared database. */
export function auth(): Auth {
  shared ??= createAuth(db());
  return shared;
}

/** Tests point auth at their own database. */
export function resetAuth(): void {
  shared = undefined;
}
