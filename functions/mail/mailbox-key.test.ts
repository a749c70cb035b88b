import { describe, expect, it } from 'vitest';
import { mailboxKey } from './mailbox-key.ts';

describe('mailboxKey', () => {
  it('spells one mailbox one way: case, spaces and +tags everywhere, dots where the provider ignores them', () => {
    expect(mailboxKey(' Buyer+Again@Example.com ')).toBe('buyer@example.com');
    expect(mailboxKey('a.b+x@gmail.com')).toBe('ab@gmail.com');
    expect(mailboxKey('A.B@googlemail.com')).toBe('ab@gmail.com');
    expect(mailboxKey('ab@gmail.com')).toBe('ab@gmail.com');
    // Other providers may route dots to different people: kept.
    expect(mailboxKey('a.b@example.com')).toBe('a.b@example.com');
    expect(mailboxKey('"a@b"@example.com')).toBe('"a@b"@example.com');
  });
});
