import { randomUUID } from 'node:crypto';
import { env, siteUrl } from '../env.ts';
import { stripe } from './stripe.ts';
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

export interface PaymentProvider {
  name: 'stripe' | 'demo';
  createCheckout(order: PaymentOrder): Promise<{ paymentId: string; url: string }>;
}

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
    return { paymentId: session.id, url: session.url };
  },
};

/** Without a Stripe key: a local page that looks like a hosted checkout, fulfilled by the same code as the webhook. */
const demoProvider: PaymentProvider = {
  name: 'demo',
  createCheckout(order) {
    const paymentId = `demo_${randomUUID()}`;
    return Promise.resolve({ paymentId, url: `${siteUrl()}/${order.language}/checkout/demo/${paymentId}` });
  },
};

export function paymentProvider(): PaymentProvider {
  const { STRIPE_SECRET_KEY, NODE_ENV, DEMO_PAYMENTS } = env();
  if (STRIPE_SECRET_KEY) return stripeProvider;
  if (NODE_ENV === 'production' && DEMO_PAYMENTS !== 'on')
    throw new Error('Payments are not configured: set STRIPE_SECRET_KEY (or DEMO_PAYMENTS=on).');
  return demoProvider;
}

export function demoPaymentsEnabled(): boolean {
  const { STRIPE_SECRET_KEY, NODE_ENV, DEMO_PAYMENTS } = env();
  return !STRIPE_SECRET_KEY && (NODE_ENV !== 'production' || DEMO_PAYMENTS === 'on');
}
