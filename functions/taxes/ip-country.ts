import { isIP } from 'node:net';

/**
 * The country of a client address from the offline GeoLite2 data shipped in the `geoip-country` npm
 * package (MaxMind's GeoLite2 licence asks for attribution: the checkout shows it). One piece of
 * the evidence of where a buyer is; private and loopback addresses have none. The data (about 7 MB)
 * is loaded on the first paid checkout, not at start.
 */
type GeoIp = typeof import('geoip-country');
let geoip: Promise<GeoIp> | undefined;

export async function countryOfIp(ip: string): Promise<string | undefined> {
  if (!isIP(ip)) return undefined;
  // A CommonJS package: Node gives its exports as names, a bundle may give them as `default`.
  geoip ??= import('geoip-country').then((module) => (module as GeoIp & { default?: GeoIp }).default ?? module);
  const country = (await geoip).lookup(ip.replace(/^::ffff:/, ''))?.country;
  return country || undefined;
}
