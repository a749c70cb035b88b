/** The header our server sets from the connection (never the client's), for better-auth's rate limits. */
export const CLIENT_IP_HEADER = 'x-shop-client-ip';

/**
 * A request's headers as better-auth sees them: the client address the shop read from the connection
 * (or its trusted proxy) in CLIENT_IP_HEADER, overwriting whatever the client sent there.
 */
export function withClientAddress(headers: Headers, ip: string): Headers {
  const forwarded = new Headers(headers);
  forwarded.set(CLIENT_IP_HEADER, ip);
  return forwarded;
}
