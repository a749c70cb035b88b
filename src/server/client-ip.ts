import { env } from '../../functions/env.ts';

let forwardedSeen = false;

/** Whether requests carried X-Forwarded-For while TRUST_PROXY is off (the admin overview warns). */
export function forwardedHeaderIgnored(): boolean {
  return forwardedSeen;
}

/**
 * The client's address: from the connection, or, behind a trusted proxy (TRUST_PROXY=true), the
 * last address that proxy appended to X-Forwarded-For. A client-sent header is never believed.
 */
export function clientIp(request: Request, connectionAddress: string): string {
  if (!env().TRUST_PROXY) {
    // A proxy in front that the shop was not told about: every buyer would share its address.
    if (request.headers.has('x-forwarded-for')) forwardedSeen = true;
    return connectionAddress;
  }
  const forwarded = request.headers
    .get('x-forwarded-for')
    ?.split(',')
    .map((part) => part.trim())
    .filter(Boolean);
  return forwarded?.at(-1) ?? connectionAddress;
}
