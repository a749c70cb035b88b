import { format } from 'node:util';
import { afterEach } from 'vitest';

/**
 * A console.error nobody expected fails the test that printed it: errors are either handled (and
 * tested) or bugs. A test that provokes one on purpose says so first with `expectConsoleError`.
 */
const expected: RegExp[] = [];
const printed: string[] = [];
const original = console.error.bind(console);

console.error = (...args: unknown[]) => {
  printed.push(format(...args));
  original(...args);
};

export function expectConsoleError(pattern: RegExp): void {
  expected.push(pattern);
}

afterEach(() => {
  const unexpected = printed.filter((text) => !expected.some((pattern) => pattern.test(text)));
  printed.length = 0;
  expected.length = 0;
  if (unexpected.length > 0) throw new Error(`Unexpected console.error:\n${unexpected.join('\n')}`);
});
