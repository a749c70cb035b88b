import { randomUUID } from 'node:crypto';
import { devToolsEnabled } from '../dev-tools.ts';
import { env, siteUrl } from '../env.ts';
import { stripe } from './stripe.ts';
import { revokePurchase } from '../checkout/fulfilment.ts';
import type { Language } from '../../src/i18n/languages.ts';

/** What a checkout needs from a payment provider: a payment reference and a page to send the buyer to. */
export interface PaymentOrder {
  orderId: string;
  courseId: string;
  courseTitle: string;
  amountMinor: number;
  currency: string;
  email: string;
  language: Language;
}

/** A completed sale to give the money back for. */
export interface RefundRequest {
  purchaseId: string;
  paymentIntentId: string | null;
}

/**
 * `refunded`: done, access ends now. `requested`: the provider confirms later (Stripe's
 * `charge.refunded` event ends access). `not_possible`: nothing this provider can refund.
 */
export type RefundResult =
  | { kind: 'refunded' }
  | { kind: 'requested' }
  | { kind: 'not_possible'; reason: 'no_payment_intent' }
  | { kind: 'failed'; message: string };

export interface PaymentProvider {
  name: 'stripe' | 'demo';
  /** `expiresAt`: when the payment page closes (a discount code's use is held until then). */
  createCheckout(order: PaymentOrder): Promise<{ paymentId: string; url: string; expiresAt: Date }>;
  refund(request: RefundRequest): Promise<RefundResult>;
}

/** How long a payment page stays open (Stripe's shortest); a discount code an unpaid order holds returns after it. */
export const CHECKOUT_SESSION_TTL_S = 30 * 60;

export function successUrl(lang: Language, courseId: string, sessionPlaceholder = '{CHECKOUT_SESSION_ID}'): string {
  return `${siteUrl()}/${lang}/checkout/success?session_id=${sessionPlaceholder}&course_id=${courseId}`;
}

export function cancelUrl(lang: Language, courseId: string): string {
  return `${siteUrl()}/${lang}/courses/${courseId}?canceled=true`;
}

const stripeProvider: PaymentProvider = {
  name: 'stripe',
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
    return { paymentId: session.id, url: session.url, expiresAt: new Date(session.expires_at * 1000) };
  },
  async refund({ purchaseId, paymentIntentId }) {
    if (!paymentIntentId) return { kind: 'not_possible', reason: 'no_payment_intent' };
    try {
      // The same key for every attempt: a retry after a lost answer never refunds twice.
      await stripe().refunds.create({ payment_intent: paymentIntentId }, { idempotencyKey: `refund-${purchaseId}` });
      return { kind: 'requested' };
    } catch (error) {
      return { kind: 'failed', message: (error as Error).message };
    }
  },
};

/** Without a Stripe key: a local page that looks like a hosted checkout, fulfilled by the same code as the webhook. */
const demoProvider: PaymentProvider = {
  name: 'demo',
  createCheckout(order) {
    const paymentId = `demo_${randomUUID()}`;
    return Promise.resolve({
      paymentId,
      url: `${siteUrl()}/${order.language}/checkout/demo/${paymentId}`,
      expiresAt: new Date(Date.now() + CHECKOUT_SESSION_TTL_S * 1000),
    });
  },
  // No money moved and no confirmation will come: access ends at once.
  async refund({ purchaseId }) {
    const outcome = await revokePurchase({ orderId: purchaseId }, 'refunded');
    return outcome === 'revoked' ? { kind: 'refunded' } : { kind: 'failed', message: 'unknown order' };
  },
};

/** The provider a sale was made with, for what comes after it (refunds); undefined when it is not configured here. */
export function providerOfSale(name: 'stripe' | 'demo'): PaymentProvider | undefined {
  if (name === 'demo') return demoProvider;
  return env().STRIPE_SECRET_KEY ? stripeProvider : undefined;
}

export function paymentProvider(): PaymentProvider {
  if (env().STRIPE_SECRET_KEY) return stripeProvider;
  if (!devToolsEnabled()) throw new Error('Payments are not configured: set STRIPE_SECRET_KEY.');
  return demoProvider;
}

/** Whether a paid course can be bought here: Stripe, or the demo provider where the tools are on. */
export function paymentsAvailable(): boolean {
  return Boolean(env().STRIPE_SECRET_KEY) || devToolsEnabled();
}

/** The demo provider is a developer tool: one rule decides for all of them (dev-tools.ts). */
export function demoPaymentsEnabled(): boolean {
  return !env().STRIPE_SECRET_KEY && devToolsEnabled();
}
