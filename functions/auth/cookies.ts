/** better-auth's cookies, with the `__Secure-` prefix they take in production. */
const SESSION_COOKIE = /^(?:__Secure-)?better-auth\.session_token$/;
export const CHALLENGE_COOKIE = /^(?:__Secure-)?better-auth\.two_factor$/;

/** A session token from a Cookie or Set-Cookie header (better-auth signs it: `token.signature`). */
export function sessionTokenIn(cookies: string[]): string | undefined {
  return cookieValue(cookies, SESSION_COOKIE);
}

/** The value of a cookie better-auth signed, without its signature. */
export function cookieValue(cookies: string[], name: RegExp): string | undefined {
  for (const cookie of cookies) {
    const [pair = ''] = cookie.split(';');
    const index = pair.indexOf('=');
    if (index < 0 || !name.test(pair.slice(0, index).trim())) continue;
    let value: string;
    try {
      value = decodeURIComponent(pair.slice(index + 1).trim());
    } catch {
      return undefined;
    }
    const dot = value.lastIndexOf('.');
    return dot > 0 ? value.slice(0, dot) : undefined;
  }
  return undefined;
}
