import Stripe from 'stripe';
import { env, siteUrl } from '../env.ts';
import { log } from '../log.ts';
import {
  CHECKOUT_SESSION_TTL_S,
  cancelUrl,
  InvalidNotification,
  successUrl,
  type PaymentNotice,
  type PaymentProvider,
} from './provider.ts';

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
  if (!secret || !signature) throw new InvalidNotification('Missing webhook secret or signature');
  try {
    return stripe().webhooks.constructEvent(rawBody, signature, secret);
  } catch (error) {
    throw new InvalidNotification((error as Error).message);
  }
}

/**
 * What a verified Stripe event says. Delivery is at least once and in no set order: the order side
 * is idempotent by event id and by order, and events we do not act on are acknowledged and ignored.
 */
export async function stripeNotice(event: Stripe.Event): Promise<PaymentNotice> {
  const recorded = { id: event.id, type: event.type };
  switch (event.type) {
    case 'checkout.session.completed':
    case 'checkout.session.async_payment_succeeded': {
      const session = event.data.object;
      // "completed" with payment still processing (bank debits) waits for async_payment_succeeded.
      if (session.payment_status !== 'paid' && session.payment_status !== 'no_payment_required')
        return { kind: 'waiting', checkoutReference: session.id };
      const cardCountry = await cardCountryOf(idOf(session.payment_intent));
      return { kind: 'paid', event: recorded, ...paidSession(session), cardCountry };
    }
    case 'checkout.session.async_payment_failed':
      return { kind: 'closed', status: 'failed', event: recorded, checkoutReference: event.data.object.id };
    case 'checkout.session.expired':
      return { kind: 'closed', status: 'expired', event: recorded, checkoutReference: event.data.object.id };
    case 'charge.refunded':
    case 'charge.dispute.created': {
      const object = event.data.object;
      const paymentReference = idOf(object.payment_intent);
      if (event.type === 'charge.refunded' && !(object as Stripe.Charge).refunded) return { kind: 'waiting' }; // partial refund: access stays
      return {
        kind: event.type === 'charge.refunded' ? 'refunded' : 'disputed',
        event: recorded,
        paymentReference,
        orderId: object.metadata?.order_id ?? (paymentReference ? await orderOfPaymentIntent(paymentReference) : undefined),
      };
    }
    case 'charge.dispute.closed': {
      const dispute = event.data.object;
      if (dispute.status !== 'won') return { kind: 'waiting' }; // lost: the money went back; access stays revoked
      const paymentReference = idOf(dispute.payment_intent);
      return {
        kind: 'dispute_won',
        event: recorded,
        paymentReference,
        orderId: paymentReference ? await orderOfPaymentIntent(paymentReference) : undefined,
      };
    }
    default:
      return { kind: 'ignored' };
  }
}

function paidSession(session: Stripe.Checkout.Session) {
  return {
    checkoutReference: session.id,
    orderId: session.metadata?.order_id ?? session.client_reference_id ?? undefined,
    paymentReference: idOf(session.payment_intent),
    amountMinor: session.amount_total ?? undefined,
    currency: session.currency ?? undefined,
  };
}

const idOf = (value: string | { id: string } | null | undefined) => (typeof value === 'string' ? value : value?.id);

/**
 * The paying card's country, from the payment's charge (`payment_method_details.card.country`), which
 * the session's event does not carry: one more piece of the evidence of where the buyer is. Asked
 * once per paid session's event (reconcile's look-ups do without); no answer leaves it out and
 * fulfils all the same.
 */
async function cardCountryOf(paymentIntentId: string | undefined): Promise<string | undefined> {
  if (!paymentIntentId) return undefined;
  try {
    const intent = await stripe().paymentIntents.retrieve(paymentIntentId, { expand: ['latest_charge'] });
    const charge = intent.latest_charge;
    return (typeof charge === 'object' && charge?.payment_method_details?.card?.country) || undefined;
  } catch (error) {
    log.warn({ err: error, paymentIntent: paymentIntentId }, 'the card country of a payment could not be read');
    return undefined;
  }
}

/** The order id we put on a PaymentIntent's metadata, for charges that do not carry it themselves. */
async function orderOfPaymentIntent(paymentIntentId: string): Promise<string | undefined> {
  if (!env().STRIPE_SECRET_KEY) return undefined;
  const intent = await stripe().paymentIntents.retrieve(paymentIntentId);
  return intent.metadata?.order_id;
}

export const stripeProvider: PaymentProvider = {
  name: 'stripe',
  label: 'Stripe',
  checkName: 'doctor.payments',
  configured: () => Boolean(env().STRIPE_SECRET_KEY),
  needsBillingDetails: false,
  refundEndsAccess: 'on_confirmation',
  async createCheckout(order) {
    const session = await stripe().checkout.sessions.create(
      {
        mode: 'payment',
        line_items: [
          {
            quantity: 1,
            price_data: {
              currency: order.currency.toLowerCase(),
              unit_amount: order.amountMinor,
              product_data: { name: order.courseTitle },
            },
          },
        ],
        customer_email: order.email,
        locale: order.language,
        // Stripe's shortest life for a session: an abandoned payment gives its discount code back soon.
        expires_at: Math.floor(Date.now() / 1000) + CHECKOUT_SESSION_TTL_S,
        success_url: successUrl(order.language, order.courseId),
        cancel_url: cancelUrl(order.language, order.courseId),
        client_reference_id: order.orderId,
        metadata: { order_id: order.orderId, course_id: order.courseId },
        payment_intent_data: { metadata: { order_id: order.orderId, course_id: order.courseId } },
      },
      // A retried request for the same order never makes a second session.
      { idempotencyKey: `checkout-session-${order.orderId}` },
    );
    if (!session.url) throw new Error('No checkout URL received');
    return { reference: session.id, url: session.url, expiresAt: new Date(session.expires_at * 1000) };
  },
  confirmWebhook(rawBody, headers) {
    return stripeNotice(verifyWebhook(rawBody, headers.get('stripe-signature')));
  },
  // Every Checkout Session of the period, paid or not: Stripe lists them, the order side sorts them out.
  async *reconcile({ since }) {
    const created = { gte: Math.floor(since.getTime() / 1000) };
    for await (const session of stripe().checkout.sessions.list({ created, limit: 100 })) {
      yield session.payment_status === 'paid'
        ? { kind: 'paid', ...paidSession(session) }
        : { kind: 'waiting', checkoutReference: session.id };
    }
  },
  async refund({ orderId, paymentReference, partMinor }) {
    if (!paymentReference) return { kind: 'not_possible', reason: 'no_payment_reference' };
    try {
      // The same key for every attempt: a retry after a lost answer never refunds twice. Without an
      // amount, Stripe refunds what is left of the payment (after a part given back earlier).
      const part = partMinor === undefined ? {} : { amount: partMinor };
      const key = partMinor === undefined ? `refund-${orderId}` : `refund-part-${orderId}`;
      await stripe().refunds.create({ payment_intent: paymentReference, ...part }, { idempotencyKey: key });
      // A part is done once Stripe takes it: its `charge.refunded` says `refunded: false` and changes nothing.
      return { kind: partMinor === undefined ? 'requested' : 'refunded' };
    } catch (error) {
      return { kind: 'failed', message: (error as Error).message };
    }
  },
  productionProblems({ STRIPE_API_URL, STRIPE_SECRET_KEY }) {
    return [
      ...(STRIPE_API_URL ? ['STRIPE_API_URL is for tests only: remove it, or payments go to a fake.'] : []),
      ...(STRIPE_SECRET_KEY && /^(sk|rk)_test_/.test(STRIPE_SECRET_KEY)
        ? ['STRIPE_SECRET_KEY is a test key (sk_test_…): buyers would pay nothing; use the live key.']
        : []),
    ];
  },
  async check() {
    const { STRIPE_SECRET_KEY = '', STRIPE_WEBHOOK_SECRET } = env();
    const mode = /^(sk|rk)_live_/.test(STRIPE_SECRET_KEY) ? 'live' : 'test';
    if (!STRIPE_WEBHOOK_SECRET) return { status: 'fail', detail: 'doctor.webhookSecretMissing', params: {} };
    const endpoints = await stripe().webhookEndpoints.list({ limit: 100 });
    const url = `${siteUrl()}/api/stripe/webhook`;
    const endpoint = endpoints.data.find((candidate) => candidate.url === url);
    if (!endpoint) return { status: 'fail', detail: 'doctor.webhookMissing', params: { mode, url } };
    if (endpoint.status !== 'enabled')
      return { status: 'fail', detail: 'doctor.webhookDisabled', params: { mode, url, status: endpoint.status } };
    return { status: 'ok', detail: 'doctor.paymentsOk', params: { mode, url } };
  },
};

export type { Stripe };
