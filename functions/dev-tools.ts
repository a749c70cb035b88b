import { env } from './env.ts';

/**
 * Whether the developer tools answer (dev mailbox, e-mail previews, crash page, demo payments): the
 * one rule every one of them asks.
 */
export function devToolsEnabled(): boolean {
  return env().NODE_ENV !== 'production';
}
