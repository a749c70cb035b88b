import { getT } from '../../src/i18n/i18n.ts';
import { formatMoney } from '../../src/lib/money.ts';
import { formatDate } from '../../src/lib/dates.ts';
import { filledLegalText } from '../shop/legal.ts';
import type { CheckoutRequest } from '../../src/lib/checkout.schema.ts';
import type { Quote } from '../discounts/discounts.ts';

/** What a buyer agreed to, as they saw it, kept on the order. */
export interface OrderConsent {
  terms: { version: string; text: string };
  /** Paid orders only: the request for immediate access, waiving withdrawal. */
  withdrawal: { text: string } | null;
  at: string;
  clientIp: string;
  language: string;
}

interface Contract {
  version: string;
  markdown: string;
}

/** Turkey's distance-sales documents, filled for this order (Turkish paid orders only). */
export interface OrderContracts {
  preInformation: Contract;
  distanceContract: Contract;
}

export async function orderConsent(
  request: CheckoutRequest,
  course: { title: string; currency: string },
  quote: Quote,
  buyerEmail: string,
  clientIp: string,
  /** Who takes the payment, as the pre-information form names it. */
  paymentProvider = '',
): Promise<{ consent: OrderConsent; contracts: OrderContracts | null }> {
  const { language } = request;
  const t = getT(language);
  const now = new Date();
  const paid = quote.totalMinor > 0;
  const terms = await filledLegalText(language, 'terms');
  const consent: OrderConsent = {
    terms: {
      version: terms.version,
      text: t(paid && language === 'tr' ? 'checkout.acceptTermsContracts' : 'checkout.acceptTerms'),
    },
    withdrawal: paid ? { text: t('checkout.waiveWithdrawal') } : null,
    at: now.toISOString(),
    clientIp,
    language,
  };
  if (!paid || language !== 'tr') return { consent, contracts: null };
  const order = {
    buyerName: request.fullName,
    buyerAddress: billingAddress(request.billing),
    buyerEmail,
    paymentProvider,
    courseTitle: course.title,
    price: formatMoney(quote.totalMinor, course.currency, language),
    orderDate: formatDate(now, language),
  };
  const [preInformation, distanceContract] = await Promise.all([
    filledLegalText(language, 'pre-information', order),
    filledLegalText(language, 'distance-contract', order),
  ]);
  return { consent, contracts: { preInformation, distanceContract } };
}

/** The buyer's billing address as the contract prints it; a dash when their provider did not ask it. */
export function billingAddress(billing: CheckoutRequest['billing']): string {
  return billing ? `${billing.address}, ${billing.city}, ${billing.country}` : '—';
}
