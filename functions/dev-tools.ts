import { env, type Env } from './env.ts';

const LOOPBACK_HOSTS = new Set(['localhost', '::1', '[::1]']);

export function isLoopbackHost(host: string): boolean {
  return LOOPBACK_HOSTS.has(host.toLowerCase()) || /^127(\.\d{1,3}){3}$/.test(host);
}

/**
 * The one rule for the developer tools (the dev mailbox and its mail transport, the e-mail previews,
 * the crash page, the demo payment provider and its page). Each of them reads every sign-in link or
 * hands out courses for free, so they are on by default only where nobody else can reach them: in
 * development, on the embedded database, listening on loopback. Elsewhere `DEV_TOOLS=on` turns them
 * on; in production only together with `PRODUCTION_CHECKS=test-harness`, which the test and bench
 * harnesses set (env.ts refuses the first without the second).
 */
export function devToolsRule(
  settings: Pick<Env, 'NODE_ENV' | 'DEV_TOOLS' | 'PRODUCTION_CHECKS' | 'HOST'>,
  embeddedDatabase: boolean,
): boolean {
  if (settings.DEV_TOOLS === 'off') return false;
  if (settings.NODE_ENV === 'production') return settings.DEV_TOOLS === 'on' && settings.PRODUCTION_CHECKS === 'test-harness';
  if (settings.DEV_TOOLS === 'on') return true;
  return settings.NODE_ENV === 'development' && embeddedDatabase && isLoopbackHost(settings.HOST);
}

/**
 * Whether the developer tools answer in this server. `npm start` decides once, knowing whether it
 * started the embedded database, and passes the answer on as DEV_TOOLS (start.ts).
 */
export function devToolsEnabled(): boolean {
  return devToolsRule(env(), !env().DATABASE_URL);
}

/** What the tools expose, named in the warning printed when they are on beyond loopback. */
export const DEV_TOOL_PATHS = ['/en/dev/mailbox', '/en/dev/mail', '/en/dev/crash', '/api/dev/crash', '/en/checkout/demo/…'];
