import type { Server } from 'node:http';
import Provider from 'oidc-provider';
import { findFreePort } from '../../functions/db/embedded.ts';

/**
 * A real OpenID Connect provider (`oidc-provider`) on a local port, for the tests of "sign in with
 * an OpenID provider": its own login and consent pages (the package's development interactions:
 * any password is accepted for a known login), signed ID tokens, discovery, PKCE. The test decides
 * each person's claims, verified e-mail or not, by login name.
 */
export interface ProviderPerson {
  email: string;
  email_verified: boolean;
  name?: string;
}

export interface TestOidcProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The people who can sign in at the provider, by login name. */
  people: Map<string, ProviderPerson>;
  /** The environment a shop needs to offer this provider under `name`. */
  env(name: string): Record<string, string>;
  stop(): Promise<void>;
}

const CLIENT_ID = 'microcourses-test';
const CLIENT_SECRET = 'microcourses-test-secret-0123456789';

export async function startOidcProvider(port?: number): Promise<TestOidcProvider> {
  const listenOn = port ?? (await findFreePort());
  // localhost, not 127.0.0.1: the provider's cookies stay apart from the shop's in one browser.
  const issuer = `http://localhost:${listenOn}`;
  const people = new Map<string, ProviderPerson>();
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: CLIENT_ID,
        client_secret: CLIENT_SECRET,
        redirect_uris: ['http://127.0.0.1/api/auth/callback/oidc'],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    findAccount(_context, id) {
      const person = people.get(id);
      return person ? { accountId: id, claims: () => ({ sub: id, ...person }) } : undefined;
    },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    // The claims ride in the signed ID token, as Google's do.
    conformIdTokenClaims: false,
    features: { devInteractions: { enabled: true } },
    pkce: { required: () => true },
    cookies: { keys: ['oidc-test-cookie-key-0123456789'] },
    ttl: { Interaction: 600, Session: 3600, Grant: 3600, AccessToken: 600, IdToken: 600, AuthorizationCode: 60 },
  });
  // Test shops listen on ports chosen at start: any loopback shop's callback is this client's.
  const Client = provider.Client as unknown as { prototype: { redirectUriAllowed(uri: string): boolean } };
  Client.prototype.redirectUriAllowed = (uri: string) => /^http:\/\/127\.0\.0\.1:\d+\/api\/auth\/callback\/oidc$/.test(uri);
  const server: Server = provider.listen(listenOn);
  await new Promise<void>((resolve) => (server.listening ? resolve() : server.once('listening', () => resolve())));
  return {
    issuer,
    clientId: CLIENT_ID,
    clientSecret: CLIENT_SECRET,
    people,
    env: (name) => ({ OIDC_ISSUER: issuer, OIDC_CLIENT_ID: CLIENT_ID, OIDC_CLIENT_SECRET: CLIENT_SECRET, OIDC_NAME: name }),
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * A person going through the provider's own pages without a browser: its login form (their login
 * name, any password), then its consent form. Answers the address the provider sends them back to.
 */
export async function authorizeAtProvider(authorizationUrl: string, login: string): Promise<string> {
  const cookies = new Map<string, string>();
  const origin = new URL(authorizationUrl).origin;
  let next: { url: string; init?: RequestInit } = { url: authorizationUrl };
  for (let step = 0; step < 20; step++) {
    const headers = new Headers(next.init?.headers);
    if (cookies.size) headers.set('cookie', [...cookies].map(([name, value]) => `${name}=${value}`).join('; '));
    const response = await fetch(next.url, { ...next.init, headers, redirect: 'manual' });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair = ''] = cookie.split(';');
      const index = pair.indexOf('=');
      cookies.set(pair.slice(0, index), pair.slice(index + 1));
    }
    const location = response.headers.get('location');
    if (location) {
      const target = new URL(location, next.url);
      if (target.origin !== origin) return target.toString();
      next = { url: target.toString() };
      continue;
    }
    const page = await response.text();
    const action = /<form[^>]*action="([^"]+)"/.exec(page)?.[1];
    const prompt = /name="prompt" value="([a-z]+)"/.exec(page)?.[1];
    if (!action || !prompt) throw new Error(`The provider answered ${response.status} without a form: ${page.slice(0, 300)}`);
    const form = new URLSearchParams({ prompt });
    if (prompt === 'login') {
      form.set('login', login);
      form.set('password', 'any password');
    }
    next = {
      url: new URL(action.replace(/&amp;/g, '&'), next.url).toString(),
      init: { method: 'POST', body: form, headers: { 'content-type': 'application/x-www-form-urlencoded' } },
    };
  }
  throw new Error('The provider never sent the person back');
}
