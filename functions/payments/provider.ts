import { siteUrl, type Env } from '../env.ts';
import type { Language } from '../../src/i18n/languages.ts';
import type { MessageKey } from '../../src/i18n/i18n.ts';
import type { BillingDetails } from '../../src/lib/billing-details.schema.ts';

/**
 * What the shop asks of a payment provider, in the shop's words. Each provider is one file in this
 * folder implementing `PaymentProvider`, listed in registry.ts. This folder knows nothing of orders:
 * it turns the provider's answers into `PaymentNotice`s, and functions/orders/ applies them.
 */

/** What a hosted checkout needs: the order, its buyer, where to come back to. */
export interface PaymentOrder {
  orderId: string;
  courseId: string;
  courseTitle: string;
  amountMinor: number;
  currency: string;
  email: string;
  language: Language;
  clientIp: string;
  /** Billing details, asked at checkout only when the provider needs them (`needsBillingDetails`). */
  billing?: BillingDetails | undefined;
}

/** A provider's event, when a notice comes from one (webhooks): recorded so a redelivery changes nothing. */
export interface NoticeEvent {
  id: string;
  type: string;
}

/** A payment the provider confirms as paid. Amounts in minor units, as the provider reported them. */
export interface PaidPayment {
  event?: NoticeEvent | undefined;
  /** The hosted checkout's reference (Checkout Session id, iyzico token, `demo_…`). */
  checkoutReference: string;
  orderId?: string | undefined;
  /** The payment itself, which refunds and disputes name (PaymentIntent, iyzico paymentId). */
  paymentReference?: string | undefined;
  /** The order's price as the provider charged it. */
  amountMinor?: number | undefined;
  currency?: string | undefined;
  /** What the buyer paid in the end, instalment interest included, when it differs from the price. */
  paidMinor?: number | undefined;
  /** The paying card's country (ISO 3166-1 alpha-2), when the provider reports it: evidence of where the buyer is. */
  cardCountry?: string | undefined;
}

/**
 * What a provider's notification, callback or look-up says happened. `waiting`: nothing to do yet
 * (payment processing, fraud review, partial refund); `ignored`: not about a sale of ours.
 */
export type PaymentNotice =
  | ({ kind: 'paid' } & PaidPayment)
  | { kind: 'closed'; status: 'failed' | 'expired'; event?: NoticeEvent | undefined; checkoutReference: string }
  | {
      kind: 'refunded' | 'disputed' | 'dispute_won';
      event?: NoticeEvent | undefined;
      paymentReference?: string | undefined;
      orderId?: string | undefined;
    }
  | { kind: 'waiting'; checkoutReference?: string | undefined }
  | { kind: 'ignored' };

/** A completed sale to give the money back for. */
export interface Sale {
  orderId: string;
  checkoutReference: string | null;
  paymentReference: string | null;
  amountMinor: number;
  /** What the buyer paid, instalment interest included (what a full refund gives back). */
  paidMinor: number;
  currency: string;
  completedAt: Date | null;
  /** Give back only this much (the VAT of a sale found to be a reverse charge); the sale stands. */
  partMinor?: number | undefined;
  /** What parts refunded earlier gave back: a full refund returns the rest. */
  partsRefundedMinor?: number | undefined;
}

/**
 * `refunded`: done now, access ends now. `requested`: the provider confirms later (a `refunded`
 * notice ends access). `not_possible`: nothing this provider can refund. For a part (`partMinor`),
 * `refunded` means the provider took it, and access never ends.
 */
export type RefundResult =
  | { kind: 'refunded' }
  | { kind: 'requested' }
  | { kind: 'not_possible'; reason: 'no_payment_reference' }
  | { kind: 'failed'; message: string };

/** A provider's line in `npm run doctor` and the admin overview, checked against the provider for real. */
export interface ProviderCheck {
  status: 'ok' | 'fail' | 'not_configured';
  detail: MessageKey;
  params: Record<string, string | number>;
}

/** A signature or body that does not verify: the caller answers 400 and changes nothing. */
export class InvalidNotification extends Error {}

export interface PaymentProvider {
  /** Stored on each order as plain data (`purchases.provider`). */
  name: string;
  /** Shown to the seller (Admin → Settings, the refund dialog). */
  label: string;
  /** Its line's name in `npm run doctor` and the admin overview's shop health. */
  checkName: MessageKey;
  /** Whether this server holds the provider's keys (or, for the demo, whether the developer tools are on). */
  configured(): boolean;
  /** A stand-in for development (the demo): used only where no real provider is configured. */
  developerTool?: boolean;
  /** Whether the checkout must ask the buyer's billing details (name, surname, address) for it. */
  needsBillingDetails: boolean;
  /** When a refund ends access: at once, or when the provider's confirmation arrives. */
  refundEndsAccess: 'now' | 'on_confirmation';
  /** `expiresAt`: when the payment page closes (a discount code's use is held until then). */
  createCheckout(order: PaymentOrder): Promise<{ reference: string; url: string; expiresAt: Date }>;
  /** A signed server-to-server notification; throws InvalidNotification when it does not verify. */
  confirmWebhook?(rawBody: string, headers: Headers): Promise<PaymentNotice>;
  /**
   * The buyer's browser returning from the hosted page (a form post carrying only a reference):
   * what the provider, asked on the server, says about it. Throws InvalidNotification without one.
   */
  confirmCallback?(form: URLSearchParams): Promise<{ checkoutReference: string; notice: PaymentNotice }>;
  /** The backstop for lost notifications: what the provider says now about recent checkouts. */
  reconcile(recent: { since: Date; pendingReferences: string[] }): AsyncIterable<PaymentNotice>;
  refund(sale: Sale): Promise<RefundResult>;
  check(): Promise<ProviderCheck>;
  /** What a production start must refuse in this provider's settings (test keys, a sandbox, a fake's address). */
  productionProblems(settings: Env): string[];
}

/** How long a payment page stays open (Stripe's shortest); a discount code an unpaid order holds returns after it. */
export const CHECKOUT_SESSION_TTL_S = 30 * 60;

export function successUrl(lang: Language, courseId: string, sessionPlaceholder = '{CHECKOUT_SESSION_ID}'): string {
  return `${siteUrl()}/${lang}/checkout/success?session_id=${sessionPlaceholder}&course_id=${courseId}`;
}

export function cancelUrl(lang: Language, courseId: string): string {
  return `${siteUrl()}/${lang}/courses/${courseId}?canceled=true`;
}

/** Where a buyer whose payment failed returns: the course, which says so in their language. */
export function failedPaymentUrl(lang: Language, courseId: string): string {
  return `${siteUrl()}/${lang}/courses/${courseId}?payment_failed=true`;
}
