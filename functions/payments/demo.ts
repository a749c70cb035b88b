import { randomUUID } from 'node:crypto';
import { devToolsEnabled } from '../dev-tools.ts';
import { siteUrl } from '../env.ts';
import { CHECKOUT_SESSION_TTL_S, type PaymentProvider } from './provider.ts';

/**
 * Without a real provider's keys, where the developer tools are on: a local page that looks like a
 * hosted checkout; its Pay button completes the order through the same fulfilment as a webhook.
 */
export const demoProvider: PaymentProvider = {
  name: 'demo',
  label: 'Demo',
  checkName: 'doctor.payments',
  configured: devToolsEnabled,
  developerTool: true,
  needsBillingDetails: false,
  refundEndsAccess: 'now',
  createCheckout(order) {
    const reference = `demo_${randomUUID()}`;
    return Promise.resolve({
      reference,
      url: `${siteUrl()}/${order.language}/checkout/demo/${reference}`,
      expiresAt: new Date(Date.now() + CHECKOUT_SESSION_TTL_S * 1000),
    });
  },
  // The demo page's Pay button is its only confirmation (src/pages/api/checkout/demo/).
  async *reconcile() {},
  // No money moved and no confirmation will come: access ends at once.
  refund: () => Promise.resolve({ kind: 'refunded' }),
  // The developer tools' own rule refuses them in production (env.ts, preflight.ts).
  productionProblems: () => [],
  // Not a way to take money: the doctor still asks for a real provider.
  check: () => Promise.resolve({ status: 'not_configured', detail: 'doctor.paymentsMissing', params: {} }),
};
