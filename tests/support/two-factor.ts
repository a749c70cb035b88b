import { Secret, TOTP } from 'otpauth';
import type { Browser } from './test-server.ts';

/** An authenticator app on an enrolled secret: the code of this 30-second step, or of a step before or after. */
export function authenticatorFor(totpURI: string): (stepOffset?: number) => string {
  const secret = new URL(totpURI).searchParams.get('secret')!;
  const totp = new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30 });
  return (stepOffset = 0) => totp.generate({ timestamp: Date.now() + stepOffset * 30_000 });
}

/**
 * Turns two-factor on for a signed-in browser's account (password, then a first code), as an admin
 * must wherever the developer tools are off; its session has then proved a second factor.
 */
export async function enrolTwoFactor(browser: Browser, password: string, headers: Record<string, string> = {}) {
  const enabled = await browser.postJson('/api/auth/two-factor/enable', { password }, headers);
  if (enabled.status !== 200) throw new Error(`two-factor enable answered ${enabled.status}`);
  const { totpURI, backupCodes } = (await enabled.json()) as { totpURI: string; backupCodes: string[] };
  const code = authenticatorFor(totpURI);
  const used = code();
  const verified = await browser.postJson('/api/auth/two-factor/verify-totp', { code: used }, headers);
  if (verified.status !== 200) throw new Error(`two-factor confirmation answered ${verified.status}`);
  return { code, used, backupCodes };
}
