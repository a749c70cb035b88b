import type { GenericOAuthConfig } from 'better-auth/plugins/generic-oauth';
import type { Env } from '../env.ts';

/**
 * The OpenID Connect providers a buyer may sign in with, from the environment (decision 22): Google
 * by its two keys, any other provider by its issuer, keys and the name its button shows. Both go
 * the same way, better-auth's generic OAuth plugin reading the provider's discovery document.
 */
export const GOOGLE_DISCOVERY_URL = 'https://accounts.google.com/.well-known/openid-configuration';

export interface IdentityProvider {
  /** better-auth's provider id: the callback is `/api/auth/callback/<id>`. */
  id: 'google' | 'oidc';
  /** The name on its button and in Settings. */
  name: string;
  discoveryUrl: string;
  clientId: string;
  clientSecret: string;
}

/** What the browser may know of a provider: never its keys. */
export interface ProviderButton {
  id: string;
  name: string;
}

type ProviderEnv = Pick<
  Env,
  'GOOGLE_CLIENT_ID' | 'GOOGLE_CLIENT_SECRET' | 'OIDC_ISSUER' | 'OIDC_CLIENT_ID' | 'OIDC_CLIENT_SECRET' | 'OIDC_NAME'
>;

export function identityProviders(env: ProviderEnv): IdentityProvider[] {
  const providers: IdentityProvider[] = [];
  if (env.GOOGLE_CLIENT_ID && env.GOOGLE_CLIENT_SECRET) {
    providers.push({
      id: 'google',
      name: 'Google',
      discoveryUrl: GOOGLE_DISCOVERY_URL,
      clientId: env.GOOGLE_CLIENT_ID,
      clientSecret: env.GOOGLE_CLIENT_SECRET,
    });
  }
  if (env.OIDC_ISSUER && env.OIDC_CLIENT_ID && env.OIDC_CLIENT_SECRET && env.OIDC_NAME) {
    providers.push({
      id: 'oidc',
      name: env.OIDC_NAME,
      discoveryUrl: `${env.OIDC_ISSUER.replace(/\/+$/, '')}/.well-known/openid-configuration`,
      clientId: env.OIDC_CLIENT_ID,
      clientSecret: env.OIDC_CLIENT_SECRET,
    });
  }
  return providers;
}

export function providerButtons(env: ProviderEnv): ProviderButton[] {
  return identityProviders(env).map(({ id, name }) => ({ id, name }));
}

/** better-auth's configuration of each provider: an OpenID provider whose ID tokens are checked against its keys. */
export function genericOAuthConfig(providers: IdentityProvider[]): GenericOAuthConfig[] {
  return providers.map((provider) => ({
    providerId: provider.id,
    name: provider.name,
    discoveryUrl: provider.discoveryUrl,
    requireIdTokenVerification: true,
    clientId: provider.clientId,
    clientSecret: provider.clientSecret,
    scopes: ['openid', 'email', 'profile'],
    pkce: true,
    // The address and whether the provider verified it come from the signed ID token (or its
    // user-info answer); better-auth links only a verified address, to an account that verified it too.
    overrideUserInfo: false,
  }));
}
