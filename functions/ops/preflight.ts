import type { Env } from '../env.ts';
import { isLoopbackHost, isUnspecifiedHost } from '../dev-tools.ts';
import { PAYMENT_PROVIDERS } from '../payments/registry.ts';

/** What a production start must refuse (it would misdirect or fail buyers) and what it should say. */
export interface Preflight {
  problems: string[];
  warnings: string[];
}

/**
 * The production start's checks, one line each, saying what to do. Run by `npm start`, never by the
 * build (which also runs under NODE_ENV=production). PRODUCTION_CHECKS=test-harness turns the
 * refusals into warnings for the project's own harnesses, which run production on plain-http loopback.
 */
export function productionPreflight(
  settings: Env,
  { devTools, embeddedDatabase }: { devTools: boolean; embeddedDatabase: boolean },
): Preflight {
  if (settings.NODE_ENV !== 'production') return { problems: [], warnings: [] };
  const problems: string[] = [];
  const site = settings.PUBLIC_SITE_URL ? new URL(settings.PUBLIC_SITE_URL) : undefined;
  if (!site) problems.push('PUBLIC_SITE_URL is required: the https address buyers use (links in e-mails, Stripe return pages).');
  else if (site.protocol !== 'https:') problems.push(`PUBLIC_SITE_URL must start with https:// (it is ${site.origin}).`);
  else if (isLoopbackHost(site.hostname) || isUnspecifiedHost(site.hostname))
    problems.push(`PUBLIC_SITE_URL points at this machine (${site.hostname}): use the public domain buyers reach.`);
  if (devTools) problems.push('DEV_TOOLS is on: the dev mailbox shows every sign-in link and demo payments give courses away.');
  // Each payment provider says what in its settings would take no money (test keys, sandboxes, fakes).
  for (const provider of PAYMENT_PROVIDERS) problems.push(...provider.productionProblems(settings));

  const warnings: string[] = [];
  if (!settings.SMTP_URL) warnings.push('SMTP_URL is not set: e-mails wait in the outbox, none is sent until it is.');
  if (!devTools && !PAYMENT_PROVIDERS.some((provider) => !provider.developerTool && provider.configured()))
    warnings.push(
      'No payment provider is configured (README: Configuration): paid courses show "not available for purchase right now".',
    );
  if (embeddedDatabase)
    warnings.push(
      `the embedded PostgreSQL keeps the data in ${settings.DATA_DIR}/postgres on this machine only: back it up (npm run db:backup) or set DATABASE_URL.`,
    );
  if (settings.PRODUCTION_CHECKS === 'test-harness') return { problems: [], warnings: [...problems, ...warnings] };
  return { problems, warnings };
}

export const TEST_HARNESS_BANNER =
  "  PRODUCTION_CHECKS=test-harness: production safety checks are OFF. For the project's test and bench harnesses only, never a shop.";
