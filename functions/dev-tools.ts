import { BlockList, isIP } from 'node:net';
import { env, type Env } from './env.ts';

/** This machine by address: 127/8 and ::1, also written as IPv4-mapped or IPv4-compatible IPv6. */
const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');
LOOPBACK.addSubnet('::ffff:127.0.0.0', 104, 'ipv6');
LOOPBACK.addSubnet('::127.0.0.0', 104, 'ipv6');

/** "Any address of this machine": 0.0.0.0/8 and ::, also IPv4-mapped. */
const UNSPECIFIED = new BlockList();
UNSPECIFIED.addSubnet('0.0.0.0', 8, 'ipv4');
UNSPECIFIED.addAddress('::', 'ipv6');
UNSPECIFIED.addSubnet('::ffff:0.0.0.0', 104, 'ipv6');

/**
 * Whether a host name or address is this machine however it is spelt: `localhost` and every name under
 * it (RFC 6761), with or without the final dot, and loopback addresses in any IP spelling.
 */
export function isLoopbackHost(host: string): boolean {
  const name = host.toLowerCase().replace(/\.+$/, '');
  return name === 'localhost' || name.endsWith('.localhost') || inBlock(LOOPBACK, name);
}

/** Whether a host is the unspecified address (0.0.0.0, [::]): "any interface", never a site's address. */
export function isUnspecifiedHost(host: string): boolean {
  return inBlock(UNSPECIFIED, host.replace(/\.+$/, ''));
}

function inBlock(block: BlockList, host: string): boolean {
  const address = host.replace(/^\[(.*)\]$/, '$1');
  const family = isIP(address);
  return family !== 0 && block.check(address, family === 4 ? 'ipv4' : 'ipv6');
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
export const DEV_TOOL_PATHS = [
  '/en/dev/mailbox',
  '/en/dev/mail',
  '/en/dev/crash',
  '/api/dev/crash',
  '/api/dev/clock',
  '/en/checkout/demo/…',
];
