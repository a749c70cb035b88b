import Stripe from 'stripe';
import { env } from '../env.ts';

/** Everything Stripe goes through here: one client, configured once. */
let client: Stripe | undefined;

export function stripe(): Stripe {
  const { STRIPE_SECRET_KEY, STRIPE_API_URL } = env();
  if (!STRIPE_SECRET_KEY) throw new Error('STRIPE_SECRET_KEY is not set');
  if (!client) {
    const target = STRIPE_API_URL ? new URL(STRIPE_API_URL) : undefined;
    client = new Stripe(STRIPE_SECRET_KEY, {
      maxNetworkRetries: 2,
      timeout: 20_000,
      ...(target
        ? { host: target.hostname, port: target.port, protocol: target.protocol.replace(':', '') as 'http' | 'https' }
        : {}),
    });
  }
  return client;
}

/** Verifies a webhook's signature over the raw body; throws on a forged, altered or stale event. */
export function verifyWebhook(rawBody: string, signature: string | null): Stripe.Event {
  const secret = env().STRIPE_WEBHOOK_SECRET;
  if (!secret || !signature) throw new Error('Missing webhook secret or signature');
  return stripe().webhooks.constructEvent(rawBody, signature, secret);
}

export type { Stripe };
