import type { Env } from '../env.ts';
import { isLoopbackHost } from '../dev-tools.ts';

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
  else if (isLoopbackHost(site.hostname) || site.hostname === '0.0.0.0')
    problems.push(`PUBLIC_SITE_URL points at this machine (${site.hostname}): use the public domain buyers reach.`);
  if (settings.STRIPE_API_URL) problems.push('STRIPE_API_URL is for tests only: remove it, or payments go to a fake.');
  if (devTools) problems.push('DEV_TOOLS is on: the dev mailbox shows every sign-in link and demo payments give courses away.');
  if (settings.STRIPE_SECRET_KEY && /^(sk|rk)_test_/.test(settings.STRIPE_SECRET_KEY))
    problems.push('STRIPE_SECRET_KEY is a test key (sk_test_…): buyers would pay nothing; use the live key.');
  if (settings.IYZICO_API_KEY) problems.push(...iyzicoProblems(settings));

  const warnings: string[] = [];
  if (!settings.SMTP_URL) warnings.push('SMTP_URL is not set: e-mails wait in the outbox, none is sent until it is.');
  if (!settings.STRIPE_SECRET_KEY && !settings.IYZICO_API_KEY && !devTools)
    warnings.push(
      'No payment provider is set (STRIPE_SECRET_KEY, IYZICO_API_KEY): paid courses show "not available for purchase right now".',
    );
  if (embeddedDatabase)
    warnings.push(
      `the embedded PostgreSQL keeps the data in ${settings.DATA_DIR}/postgres on this machine only: back it up (npm run db:backup) or set DATABASE_URL.`,
    );
  if (settings.PRODUCTION_CHECKS === 'test-harness') return { problems: [], warnings: [...problems, ...warnings] };
  return { problems, warnings };
}

/** iyzico's sandbox (its keys start with `sandbox-`) takes no money; only its live API does. */
function iyzicoProblems(settings: Env): string[] {
  const problems: string[] = [];
  const api = new URL(settings.IYZICO_BASE_URL);
  if (api.hostname.includes('sandbox'))
    problems.push(`IYZICO_BASE_URL is iyzico's sandbox (${api.origin}): buyers would pay nothing; use https://api.iyzipay.com.`);
  else if (api.protocol !== 'https:')
    problems.push(`IYZICO_BASE_URL must be https (it is ${api.origin}): payments would go to a fake.`);
  if (settings.IYZICO_API_KEY?.startsWith('sandbox-') || settings.IYZICO_SECRET_KEY?.startsWith('sandbox-'))
    problems.push('IYZICO_API_KEY / IYZICO_SECRET_KEY are sandbox keys (sandbox-…): use the live keys from the merchant panel.');
  return problems;
}

export const TEST_HARNESS_BANNER =
  "  PRODUCTION_CHECKS=test-harness: production safety checks are OFF. For the project's test and bench harnesses only, never a shop.";
