import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { ensureUser } from '../../functions/auth/users.ts';
import { db } from '../../functions/db/database.ts';
import { findFreePort } from '../../functions/db/embedded.ts';
import { stopChild, waitForOutput } from '../bench/bench-server.ts';

export interface TestServer {
  url: string;
  /** The server process (its memory is in /proc/<pid>/status). */
  pid?: number | undefined;
  /** What the server printed to stdout so far (its log lines). */
  output?: () => string;
  /** fetch against the server, with the Origin a browser would send. */
  fetch(path: string, init?: RequestInit): Promise<Response>;
  stop(): Promise<void>;
}

/** The built shop, as users reach it, on this test file's database. */
export async function startTestServer(extraEnv: Record<string, string> = {}): Promise<TestServer> {
  const port = await findFreePort();
  const url = `http://127.0.0.1:${port}`;
  // Production checks the build is current, as a deploy's start does; the global setup has built it.
  const args = extraEnv.NODE_ENV === 'production' ? [] : ['--no-build'];
  const child = spawn(process.execPath, ['functions/cli/start.ts', ...args], {
    env: {
      ...process.env,
      ENV_FILE: '',
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_SITE_URL: url,
      NODE_ENV: 'test',
      BETTER_AUTH_SECRET: 'test-secret-test-secret-test-secret-42',
      TRUST_PROXY: 'true',
      // The dev mailbox and demo payments: a test server has no embedded database to imply them.
      DEV_TOOLS: 'on',
      ...extraEnv,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let printed = '';
  child.stdout.on('data', (chunk: Buffer) => (printed += chunk.toString()));
  await waitForOutput(child, 'Shop ready');
  return {
    url,
    pid: child.pid,
    output: () => printed,
    fetch: (path, init = {}) => {
      const headers = new Headers(init.headers);
      if (!headers.has('origin')) headers.set('origin', url);
      return fetch(`${url}${path}`, { redirect: 'manual', ...init, headers });
    },
    stop: () => stopChild(child),
  };
}

let nextAddress = 1;

/**
 * One simulated browser: a cookie jar and its own client address (sent as X-Forwarded-For, which
 * the test server trusts as a proxy would), so per-address rate limits apply per browser.
 */
export class Browser {
  private cookies = new Map<string, string>();
  private readonly server: TestServer;
  readonly address: string;
  constructor(server: TestServer, address?: string) {
    this.server = server;
    this.address = address ?? `198.51.${Math.floor(nextAddress / 250)}.${(nextAddress++ % 250) + 1}`;
  }

  /** The same cookies (the same session) from another client address. */
  elsewhere(): Browser {
    const twin = new Browser(this.server);
    twin.cookies = this.cookies;
    return twin;
  }

  /** The headers this browser sends with a request: its address and its cookies. */
  headers(init?: HeadersInit): Headers {
    const headers = new Headers(init);
    if (!headers.has('x-forwarded-for')) headers.set('x-forwarded-for', this.address);
    if (this.cookies.size) headers.set('cookie', [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; '));
    return headers;
  }

  async request(path: string, init: RequestInit = {}): Promise<Response> {
    const response = await this.server.fetch(path, { ...init, headers: this.headers(init.headers) });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair = ''] = cookie.split(';');
      const index = pair.indexOf('=');
      const name = pair.slice(0, index);
      const value = pair.slice(index + 1);
      if (/max-age=0/i.test(cookie) || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return response;
  }

  /** A JSON call with any method (a body only when given), as an island makes it. */
  json(method: string, path: string, body?: unknown): Promise<Response> {
    return this.request(
      path,
      body === undefined ? { method } : { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) },
    );
  }

  postJson(path: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
    return this.request(path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
  }
}

/** A browser signed in as a new (or existing) account with the given role. */
export async function signedInBrowser(
  server: TestServer,
  {
    role,
    email = `${role}-${randomUUID().slice(0, 8)}@example.com`,
    password = 'correct horse 42',
    fullName = `Test ${role}`,
  }: { role: 'user' | 'admin'; email?: string; password?: string; fullName?: string },
): Promise<Browser> {
  await ensureUser(db(), { email, password, fullName, role });
  const browser = new Browser(server);
  const response = await browser.postJson('/api/auth/sign-in/email', { email, password });
  if (response.status !== 200) throw new Error(`Sign-in of ${email} failed with ${response.status}`);
  return browser;
}
