/** Providers whose mailboxes ignore dots in the local part, and the domain each one's mail arrives at. */
const DOTS_IGNORED: Record<string, string> = { 'gmail.com': 'gmail.com', 'googlemail.com': 'gmail.com' };

/**
 * One mailbox however its address is spelt, for comparing identities (a code's "once per buyer", the
 * limits per mailbox), never for sending: case and surrounding spaces, a `+tag` (stripped for every
 * provider: most deliver it to the same mailbox, and a shop cannot tell which do not), and the dots of
 * providers that ignore them (Gmail, under either of its domains).
 */
export function mailboxKey(email: string): string {
  const [local = '', domain = ''] = email
    .trim()
    .toLowerCase()
    .split(/@(?=[^@]*$)/);
  const untagged = local.split('+')[0]!;
  const dotless = DOTS_IGNORED[domain];
  return dotless ? `${untagged.replaceAll('.', '')}@${dotless}` : `${untagged}@${domain}`;
}
