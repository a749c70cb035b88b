import { afterEach, describe, expect, it, vi } from 'vitest';
import { readEnv } from '../env.ts';
import { db } from '../db/database.ts';
import { createAuth } from './auth.ts';
import { GOOGLE_DISCOVERY_URL, identityProviders, providerButtons } from './identity-providers.ts';

/**
 * Google cannot be reached from the test machines: its configuration is checked over the same generic
 * path the end-to-end tests drive against a real local provider, with Google's published discovery
 * document served in its place (the only stand-in; nothing of the shop's is replaced).
 */
const GOOGLE_DISCOVERY = {
  issuer: 'https://accounts.google.com',
  authorization_endpoint: 'https://accounts.google.com/o/oauth2/v2/auth',
  token_endpoint: 'https://oauth2.googleapis.com/token',
  userinfo_endpoint: 'https://openidconnect.googleapis.com/v1/userinfo',
  revocation_endpoint: 'https://oauth2.googleapis.com/revoke',
  jwks_uri: 'https://www.googleapis.com/oauth2/v3/certs',
  response_types_supported: [
    'code',
    'token',
    'id_token',
    'code token',
    'code id_token',
    'token id_token',
    'code token id_token',
    'none',
  ],
  subject_types_supported: ['public'],
  id_token_signing_alg_values_supported: ['RS256'],
  scopes_supported: ['openid', 'email', 'profile'],
  token_endpoint_auth_methods_supported: ['client_secret_post', 'client_secret_basic'],
  claims_supported: [
    'aud',
    'email',
    'email_verified',
    'exp',
    'family_name',
    'given_name',
    'iat',
    'iss',
    'name',
    'picture',
    'sub',
  ],
  code_challenge_methods_supported: ['plain', 'S256'],
  grant_types_supported: [
    'authorization_code',
    'refresh_token',
    'urn:ietf:params:oauth:grant-type:device_code',
    'urn:ietf:params:oauth:grant-type:jwt-bearer',
  ],
};

const GOOGLE = { GOOGLE_CLIENT_ID: '1234-shop.apps.googleusercontent.com', GOOGLE_CLIENT_SECRET: 'GOCSPX-test-secret' };
const OIDC = {
  OIDC_ISSUER: 'https://id.example.com/realms/shop/',
  OIDC_CLIENT_ID: 'shop',
  OIDC_CLIENT_SECRET: 'secret',
  OIDC_NAME: 'Example ID',
};

afterEach(() => {
  vi.unstubAllEnvs();
  vi.unstubAllGlobals();
});

describe('which providers are offered', () => {
  it('none without variables, Google with its two keys, another provider with its four, by name and never by its keys', () => {
    expect(identityProviders(readEnv({}))).toEqual([]);
    expect(providerButtons(readEnv({ ...GOOGLE, ...OIDC }))).toEqual([
      { id: 'google', name: 'Google' },
      { id: 'oidc', name: 'Example ID' },
    ]);
    const [google, other] = identityProviders(readEnv({ ...GOOGLE, ...OIDC }));
    expect(google).toMatchObject({ discoveryUrl: GOOGLE_DISCOVERY_URL, clientId: GOOGLE.GOOGLE_CLIENT_ID });
    expect(other).toMatchObject({ discoveryUrl: 'https://id.example.com/realms/shop/.well-known/openid-configuration' });
  });

  it('refuses half a configuration at start-up, naming what is missing', () => {
    expect(() => readEnv({ GOOGLE_CLIENT_ID: GOOGLE.GOOGLE_CLIENT_ID })).toThrow(/GOOGLE_CLIENT_SECRET: .*go together/);
    expect(() => readEnv({ OIDC_ISSUER: OIDC.OIDC_ISSUER, OIDC_CLIENT_ID: 'shop' })).toThrow(
      /OIDC_CLIENT_SECRET[\s\S]*OIDC_NAME/,
    );
    expect(() => readEnv({ ...OIDC, OIDC_ISSUER: 'ftp://id.example.com' })).toThrow(/OIDC_ISSUER/);
  });
});

describe('Google through the generic OpenID path', () => {
  it('sends the buyer to Google’s authorization endpoint with the shop’s client, callback, scopes, state and PKCE', async () => {
    for (const [name, value] of Object.entries(GOOGLE)) vi.stubEnv(name, value);
    vi.stubEnv('PUBLIC_SITE_URL', 'https://shop.example.com');
    const realFetch = globalThis.fetch;
    const asked: string[] = [];
    vi.stubGlobal('fetch', (input: string | URL | Request, init?: RequestInit) => {
      const url = input instanceof Request ? input.url : String(input);
      asked.push(url);
      if (url === GOOGLE_DISCOVERY_URL) return Promise.resolve(Response.json(GOOGLE_DISCOVERY));
      if (url === GOOGLE_DISCOVERY.jwks_uri) return Promise.resolve(Response.json({ keys: [] }));
      return realFetch(input, init);
    });
    const auth = createAuth(db());
    const result = await auth.api.signInSocial({
      body: { provider: 'google', callbackURL: '/tr/dashboard', disableRedirect: true },
    });
    expect(asked).toContain(GOOGLE_DISCOVERY_URL);
    const url = new URL(result.url!);
    expect(`${url.origin}${url.pathname}`).toBe('https://accounts.google.com/o/oauth2/v2/auth');
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      client_id: GOOGLE.GOOGLE_CLIENT_ID,
      redirect_uri: 'https://shop.example.com/api/auth/callback/google',
      response_type: 'code',
      scope: 'openid email profile',
      code_challenge_method: 'S256',
    });
    expect(url.searchParams.get('state')).toMatch(/.{16,}/);
    expect(url.searchParams.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(url.searchParams.get('nonce')).toBeTruthy();
    expect(result.url).not.toContain(GOOGLE.GOOGLE_CLIENT_SECRET);
  });
});
