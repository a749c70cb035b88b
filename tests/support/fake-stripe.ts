import { randomBytes } from 'node:crypto';
import http from 'node:http';
import Stripe from 'stripe';
import { findFreePort } from '../../functions/db/embedded.ts';

export const FAKE_STRIPE_KEY = 'sk_test_fakeStripeKeyForTests';
export const WEBHOOK_SECRET = 'whsec_test_secret_for_tests';

export interface RecordedRequest {
  method: string;
  path: string;
  body: URLSearchParams;
  headers: http.IncomingHttpHeaders;
}

/**
 * A local HTTP fake of the parts of Stripe's API the shop calls (Stripe itself is out of reach here).
 * It records every request and answers like Stripe would for Checkout Sessions, PaymentIntents, refunds and
 * the list of webhook endpoints.
 */
export async function startFakeStripe() {
  const requests: RecordedRequest[] = [];
  const sessions = new Map<string, Record<string, unknown>>();
  const intents = new Map<
    string,
    { id: string; metadata: Record<string, string>; cardCountry: string; amount: number; refunded: number }
  >();
  /** Answers already given, by Idempotency-Key: Stripe replays them rather than refunding again. */
  const replies = new Map<string, unknown>();
  const knobs = { refundsDeclined: false };
  const webhookEndpoints: { id: string; object: 'webhook_endpoint'; url: string; status: 'enabled' | 'disabled' }[] = [];
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString()));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://fake');
      const body = new URLSearchParams(raw);
      requests.push({ method: req.method ?? 'GET', path: url.pathname, body, headers: req.headers });
      const send = (status: number, payload: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(payload));
      };
      if (req.method === 'POST' && url.pathname === '/v1/checkout/sessions') {
        const id = `cs_test_${randomBytes(16).toString('hex')}`;
        const session = {
          id,
          object: 'checkout.session',
          url: `https://checkout.stripe.test/c/pay/${id}`,
          status: 'open',
          payment_status: 'unpaid',
          amount_total: Number(body.get('line_items[0][price_data][unit_amount]')),
          currency: body.get('line_items[0][price_data][currency]'),
          metadata: { order_id: body.get('metadata[order_id]') },
          client_reference_id: body.get('client_reference_id'),
          created: Math.floor(Date.now() / 1000),
          // As Stripe answers: the expiry asked for, or its default of 24 hours.
          expires_at: Number(body.get('expires_at') ?? Math.floor(Date.now() / 1000) + 86_400),
        };
        sessions.set(id, session);
        return send(200, session);
      }
      if (req.method === 'GET' && url.pathname === '/v1/checkout/sessions') {
        return send(200, {
          object: 'list',
          data: [...sessions.values()].reverse(),
          has_more: false,
          url: '/v1/checkout/sessions',
        });
      }
      const intent = url.pathname.match(/^\/v1\/payment_intents\/(\w+)$/);
      if (req.method === 'GET' && intent) {
        const found = intents.get(intent[1]!);
        if (!found) return send(404, { error: { type: 'invalid_request_error', message: 'No such payment_intent' } });
        // As Stripe: the charge is an id unless asked to expand it, and then carries the card's country.
        const chargeId = `ch_${found.id.slice(3)}`;
        const expanded = url.searchParams.getAll('expand[0]').includes('latest_charge');
        return send(200, {
          object: 'payment_intent',
          id: found.id,
          metadata: found.metadata,
          latest_charge: expanded
            ? {
                id: chargeId,
                object: 'charge',
                payment_intent: found.id,
                payment_method_details: { type: 'card', card: { brand: 'visa', country: found.cardCountry, last4: '4242' } },
              }
            : chargeId,
        });
      }
      if (req.method === 'POST' && url.pathname === '/v1/refunds') {
        const key = String(req.headers['idempotency-key'] ?? '');
        if (key && replies.has(key)) return send(200, replies.get(key));
        // As Stripe does when the account's balance cannot cover a refund.
        if (knobs.refundsDeclined)
          return send(400, {
            error: { type: 'invalid_request_error', code: 'balance_insufficient', message: 'Insufficient balance.' },
          });
        // A payment the fake made (`pay`): Stripe refunds what is left without an amount, refuses more than that.
        const paid = intents.get(body.get('payment_intent') ?? '');
        const amount = body.has('amount') ? Number(body.get('amount')) : paid ? paid.amount - paid.refunded : undefined;
        if (paid && (!Number.isInteger(amount) || amount! <= 0 || paid.refunded + amount! > paid.amount))
          return send(400, {
            error: {
              type: 'invalid_request_error',
              code: 'amount_too_large',
              message: 'Refund amount is greater than unrefunded amount on charge',
            },
          });
        if (paid) paid.refunded += amount!;
        const refund = {
          id: `re_${randomBytes(8).toString('hex')}`,
          object: 'refund',
          status: 'succeeded',
          amount,
          payment_intent: body.get('payment_intent'),
        };
        if (key) replies.set(key, refund);
        return send(200, refund);
      }
      if (req.method === 'GET' && url.pathname === '/v1/webhook_endpoints') {
        return send(200, { object: 'list', data: webhookEndpoints, has_more: false, url: '/v1/webhook_endpoints' });
      }
      send(404, { error: { type: 'invalid_request_error', message: `Unhandled ${req.method} ${url.pathname}` } });
    });
  });
  const port = await findFreePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${port}`,
    /** The shop's settings that point it at this fake (a test key, the webhook secret, the API address). */
    settings: {
      STRIPE_SECRET_KEY: FAKE_STRIPE_KEY,
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_API_URL: `http://127.0.0.1:${port}`,
    },
    requests,
    sessions,
    /** The endpoints the dashboard lists (Webhooks → endpoints), as `npm run doctor` reads them. */
    webhookEndpoints,
    /** Switches on Stripe's refusal of refunds (an account balance that cannot cover them). */
    knobs,
    /** What the fake refunded of a payment it made (`pay`), in minor units. */
    refundedOf: (paymentIntent: string) => intents.get(paymentIntent)?.refunded,
    /** Marks a session paid, as Stripe does when the buyer completes the payment page (with a card of `cardCountry`). */
    pay(sessionId: string, orderId: string, cardCountry = 'US') {
      const paymentIntent = `pi_${randomBytes(12).toString('hex')}`;
      const amount = Number(sessions.get(sessionId)!.amount_total);
      intents.set(paymentIntent, { id: paymentIntent, metadata: { order_id: orderId }, cardCountry, amount, refunded: 0 });
      Object.assign(sessions.get(sessionId)!, { status: 'complete', payment_status: 'paid', payment_intent: paymentIntent });
      return paymentIntent;
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A webhook delivery signed with Stripe's own test-header helper. */
export function signedEvent(
  event: { id: string; type: string; data: { object: unknown } },
  secret = WEBHOOK_SECRET,
  timestamp?: number,
) {
  const payload = JSON.stringify({
    object: 'event',
    api_version: '2025-01-01',
    created: Math.floor(Date.now() / 1000),
    livemode: false,
    ...event,
  });
  const signature = new Stripe(FAKE_STRIPE_KEY).webhooks.generateTestHeaderString({
    payload,
    secret,
    ...(timestamp ? { timestamp } : {}),
  });
  return { payload, signature };
}

/**
 * Stripe's word that a pending order's checkout was paid, delivered to the server's webhook (200 expected).
 * `paymentIntent`: one the fake knows (from `pay`), so the shop can read the card's country from it.
 */
export async function deliverPaid(
  server: { fetch: (path: string, init?: RequestInit) => Promise<Response> },
  order: { id: string; payment_id: string | null; amount_minor: number; currency: string },
  paymentIntent = `pi_${randomBytes(12).toString('hex')}`,
): Promise<Response> {
  const event = signedEvent({
    id: `evt_${randomBytes(12).toString('hex')}`,
    type: 'checkout.session.completed',
    data: {
      object: {
        id: order.payment_id,
        object: 'checkout.session',
        payment_status: 'paid',
        amount_total: order.amount_minor,
        currency: order.currency.toLowerCase(),
        metadata: { order_id: order.id },
        payment_intent: paymentIntent,
      },
    },
  });
  return server.fetch('/api/stripe/webhook', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'stripe-signature': event.signature },
    body: event.payload,
  });
}
