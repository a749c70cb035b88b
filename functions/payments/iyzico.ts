import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import Iyzipay from 'iyzipay';
import { z } from 'zod';
import { env, siteUrl } from '../env.ts';
import { log } from '../log.ts';
import {
  CHECKOUT_SESSION_TTL_S,
  InvalidNotification,
  type PaymentNotice,
  type PaymentOrder,
  type PaymentProvider,
  type Sale,
} from './provider.ts';

/**
 * iyzico (Türkiye), through its official SDK and its hosted Checkout Form: the buyer pays on
 * iyzico's page (cards, 3-D Secure, instalments), which posts a token back to our callback; the
 * server then retrieves the payment and believes only what the signed answer says. Its webhook and
 * the reconcile backstop take the same path: a token, retrieved, verified.
 */

export const IYZICO_SANDBOX_URL = 'https://sandbox-api.iyzipay.com';
/** The instalment counts the hosted form may offer (iyzico's valid values; the card decides which apply). */
const INSTALMENTS = [1, 2, 3, 6, 9, 12];
/**
 * iyzico marks the buyer's identityNumber required (a T.C. identity number for Turkish merchants) and
 * publishes no value for buyers without one; integrations send eleven ones, which iyzico accepts. The
 * buyer may leave the field empty: README says so, and the seller can confirm it with iyzico.
 */
export const IDENTITY_NUMBER_NOT_GIVEN = '11111111111';
/** iyzico's authentication error codes: the key is unknown (1001) or the signature is wrong (1000). */
const AUTHENTICATION_ERRORS = new Set(['1000', '1001']);

type Call = (request: object, callback: (error: Error | null, result: unknown) => void) => void;
interface Client {
  apiTest: { retrieve: Call };
  checkoutFormInitialize: { create: Call };
  checkoutForm: { retrieve: Call };
  cancel: { create: Call };
  refundV2: { create: Call };
}

let client: { key: string; sdk: Client } | undefined;

/** The SDK, with its settings passed explicitly: left unset, it would read IYZIPAY_* variables by itself. */
function iyzipay(): Client {
  const { IYZICO_API_KEY, IYZICO_SECRET_KEY, IYZICO_BASE_URL } = env();
  if (!IYZICO_API_KEY || !IYZICO_SECRET_KEY) throw new Error('IYZICO_API_KEY and IYZICO_SECRET_KEY are not set');
  const key = `${IYZICO_API_KEY}:${IYZICO_BASE_URL}`;
  if (client?.key !== key)
    client = {
      key,
      sdk: new Iyzipay({ apiKey: IYZICO_API_KEY, secretKey: IYZICO_SECRET_KEY, uri: IYZICO_BASE_URL }) as unknown as Client,
    };
  return client.sdk;
}

function request(resource: keyof Client, method: 'create' | 'retrieve', body: object): Promise<unknown> {
  const target = iyzipay()[resource] as Record<typeof method, Call | undefined>;
  return new Promise((resolve, reject) => {
    target[method]!.call(target, body, (error, result) => (error ? reject(error) : resolve(result)));
  });
}

const Answer = z.object({
  status: z.enum(['success', 'failure']),
  errorCode: z.coerce.string().optional(),
  errorMessage: z.string().optional(),
});

const Initialized = Answer.extend({
  token: z.string().optional(),
  paymentPageUrl: z.string().optional(),
  // Seconds the form's token stays payable.
  tokenExpireTime: z.coerce.number().int().positive().optional(),
});

const Decimal = z.union([z.number(), z.string()]);
const Retrieved = Answer.extend({
  token: z.string().optional(),
  paymentStatus: z.string().optional(),
  paymentId: z.coerce.string().optional(),
  basketId: z.string().optional(),
  conversationId: z.string().optional(),
  currency: z.string().optional(),
  price: Decimal.optional(),
  paidPrice: Decimal.optional(),
  installment: z.number().optional(),
  fraudStatus: z.number().optional(),
  signature: z.string().optional(),
});
type Retrieved = z.infer<typeof Retrieved>;

const WebhookBody = z.object({
  iyziEventType: z.string(),
  iyziPaymentId: z.coerce.string().default(''),
  token: z.string().min(1),
  paymentConversationId: z.string().default(''),
  status: z.string(),
});

/** iyzico's decimals ("149.0", 149.5) in minor units; TRY, USD, EUR and GBP all have two decimals. */
export function toMinor(value: string | number): number {
  return Math.round(Number(value) * 100);
}

function toDecimal(minor: number): string {
  return (minor / 100).toFixed(2);
}

const hmac = (secret: string, data: string) => createHmac('sha256', secret).update(data).digest('hex');

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** A response's `signature`: HMAC-SHA256 with the secret key over the named fields joined by ':' (iyzipay's samples). */
export function responseSignature(fields: (string | number | undefined)[], secretKey: string): string {
  return hmac(secretKey, fields.map((field) => String(field ?? '')).join(':'));
}

/** X-IYZ-SIGNATURE-V3 of a Checkout Form notification: HMAC-SHA256 over the secret key and the event's fields. */
export function webhookSignature(
  body: { iyziEventType: string; iyziPaymentId: string; token: string; paymentConversationId: string; status: string },
  secretKey: string,
): string {
  return hmac(
    secretKey,
    `${secretKey}${body.iyziEventType}${body.iyziPaymentId}${body.token}${body.paymentConversationId}${body.status}`,
  );
}

const secretKey = () => env().IYZICO_SECRET_KEY ?? '';

/** What a retrieved Checkout Form result says, believed only when its signature verifies. */
async function retrieve(token: string, language = 'tr'): Promise<PaymentNotice> {
  const answer = Retrieved.safeParse(await request('checkoutForm', 'retrieve', { locale: language, token }));
  if (!answer.success) throw new Error('iyzico answered a retrieve with an unexpected shape');
  const result = answer.data;
  if (result.status !== 'success') {
    log.warn({ token, code: result.errorCode }, 'iyzico could not retrieve a checkout form');
    return { kind: 'waiting', checkoutReference: token };
  }
  if (!signedByIyzico(result)) {
    log.error({ token }, "an iyzico answer's signature does not verify: nothing is fulfilled");
    return { kind: 'ignored' };
  }
  if (result.paymentStatus === 'FAILURE') return { kind: 'closed', status: 'failed', checkoutReference: token };
  // Fraud review: 1 approved, 0 in review (a notification follows), -1 rejected.
  if (result.paymentStatus !== 'SUCCESS' || result.fraudStatus !== 1) {
    if (result.fraudStatus === -1) return { kind: 'closed', status: 'failed', checkoutReference: token };
    return { kind: 'waiting', checkoutReference: token };
  }
  return {
    kind: 'paid',
    checkoutReference: token,
    orderId: result.basketId,
    paymentReference: result.paymentId,
    amountMinor: result.price === undefined ? undefined : toMinor(result.price),
    currency: result.currency,
    paidMinor: result.paidPrice === undefined ? undefined : toMinor(result.paidPrice),
  };
}

function signedByIyzico(result: Retrieved): boolean {
  if (!result.signature) return false;
  const expected = responseSignature(
    [
      result.paymentStatus,
      result.paymentId,
      result.currency,
      result.basketId,
      result.conversationId,
      result.paidPrice,
      result.price,
      result.token,
    ],
    secretKey(),
  );
  return sameText(expected, result.signature);
}

/** Whether two instants fall on the same day in Türkiye, where iyzico's day (cancel vs refund) is counted. */
function sameIstanbulDay(a: Date, b: Date): boolean {
  const day = (date: Date) => date.toLocaleDateString('en-CA', { timeZone: 'Europe/Istanbul' });
  return day(a) === day(b);
}

async function refundSale(sale: Sale) {
  if (!sale.paymentReference) return { kind: 'not_possible', reason: 'no_payment_reference' } as const;
  // The same day a whole payment is cancelled (nothing is charged); otherwise, and for a part (a cancel
  // takes the whole payment), the amount is refunded.
  const earlier = sale.partsRefundedMinor ?? 0;
  const whole = sale.partMinor === undefined && earlier === 0;
  const sameDay = sale.completedAt !== null && sameIstanbulDay(sale.completedAt, new Date());
  const answer = Answer.safeParse(
    whole && sameDay
      ? await request('cancel', 'create', { locale: 'tr', conversationId: sale.orderId, paymentId: sale.paymentReference })
      : await request('refundV2', 'create', {
          locale: 'tr',
          conversationId: sale.orderId,
          paymentId: sale.paymentReference,
          price: toDecimal(sale.partMinor ?? sale.paidMinor - earlier),
          currency: sale.currency,
        }),
  );
  if (answer.success && answer.data.status === 'success') return { kind: 'refunded' } as const;
  return { kind: 'failed', message: answer.data?.errorMessage ?? 'unexpected answer' } as const;
}

function checkoutRequest(order: PaymentOrder) {
  const billing = order.billing;
  if (!billing) throw new Error('iyzico needs the buyer’s billing details');
  const price = toDecimal(order.amountMinor);
  const address = {
    contactName: `${billing.name} ${billing.surname}`,
    city: billing.city,
    country: billing.country,
    address: billing.address,
  };
  return {
    locale: order.language,
    conversationId: order.orderId,
    price,
    paidPrice: price,
    currency: order.currency,
    basketId: order.orderId,
    paymentGroup: 'PRODUCT',
    callbackUrl: `${siteUrl()}/api/payments/iyzico/callback`,
    enabledInstallments: INSTALMENTS,
    buyer: {
      id: order.email,
      name: billing.name,
      surname: billing.surname,
      email: order.email,
      identityNumber: billing.identityNumber || IDENTITY_NUMBER_NOT_GIVEN,
      registrationAddress: billing.address,
      ip: order.clientIp,
      city: billing.city,
      country: billing.country,
    },
    billingAddress: address,
    basketItems: [{ id: order.courseId, name: order.courseTitle, category1: 'Course', itemType: 'VIRTUAL', price }],
  };
}

export const iyzicoProvider: PaymentProvider = {
  name: 'iyzico',
  label: 'iyzico',
  checkName: 'doctor.paymentsIyzico',
  configured: () => Boolean(env().IYZICO_API_KEY && env().IYZICO_SECRET_KEY),
  needsBillingDetails: true,
  refundEndsAccess: 'now',
  async createCheckout(order) {
    const answer = Initialized.parse(await request('checkoutFormInitialize', 'create', checkoutRequest(order)));
    if (answer.status !== 'success' || !answer.token || !answer.paymentPageUrl)
      throw new Error(`iyzico refused the checkout form: ${answer.errorCode ?? ''} ${answer.errorMessage ?? ''}`);
    const openS = answer.tokenExpireTime ?? CHECKOUT_SESSION_TTL_S;
    return { reference: answer.token, url: answer.paymentPageUrl, expiresAt: new Date(Date.now() + openS * 1000) };
  },
  // The body carries only a token: what it paid is asked of iyzico itself.
  async confirmCallback(form) {
    const token = form.get('token') ?? '';
    if (!/^[\w-]{10,200}$/.test(token)) throw new InvalidNotification('no token');
    return { checkoutReference: token, notice: await retrieve(token) };
  },
  async confirmWebhook(rawBody, headers) {
    const signature = headers.get('x-iyz-signature-v3');
    if (!signature) throw new InvalidNotification('unsigned iyzico notification');
    let body: z.infer<typeof WebhookBody>;
    try {
      body = WebhookBody.parse(JSON.parse(rawBody));
    } catch {
      throw new InvalidNotification('malformed iyzico notification');
    }
    if (!sameText(webhookSignature(body, secretKey()), signature)) throw new InvalidNotification('forged iyzico notification');
    // A failure may be followed by a success on the same form: only the retrieved result counts.
    const notice = await retrieve(body.token);
    return notice.kind === 'closed' ? { kind: 'waiting', checkoutReference: body.token } : notice;
  },
  async *reconcile({ pendingReferences }) {
    for (const token of pendingReferences) {
      const notice = await retrieve(token);
      // The buyer may still be on the form: a failed attempt closes an order only through the callback.
      yield notice.kind === 'closed' ? { kind: 'waiting', checkoutReference: token } : notice;
    }
  },
  refund: refundSale,
  // iyzico's sandbox (its keys start with `sandbox-`) takes no money; only its live API does.
  productionProblems({ IYZICO_API_KEY, IYZICO_SECRET_KEY, IYZICO_BASE_URL }) {
    if (!IYZICO_API_KEY) return [];
    const api = new URL(IYZICO_BASE_URL);
    const problems: string[] = [];
    if (api.hostname.includes('sandbox'))
      problems.push(
        `IYZICO_BASE_URL is iyzico's sandbox (${api.origin}): buyers would pay nothing; use https://api.iyzipay.com.`,
      );
    else if (api.protocol !== 'https:')
      problems.push(`IYZICO_BASE_URL must be https (it is ${api.origin}): payments would go to a fake.`);
    if (IYZICO_API_KEY.startsWith('sandbox-') || IYZICO_SECRET_KEY?.startsWith('sandbox-'))
      problems.push(
        'IYZICO_API_KEY / IYZICO_SECRET_KEY are sandbox keys (sandbox-…): use the live keys from the merchant panel.',
      );
    return problems;
  },
  async check() {
    const { IYZICO_BASE_URL } = env();
    const mode = IYZICO_BASE_URL.includes('sandbox') ? 'sandbox' : 'live';
    const reachable = Answer.safeParse(await request('apiTest', 'retrieve', {}));
    if (!reachable.success || reachable.data.status !== 'success')
      return { status: 'fail', detail: 'doctor.iyzicoUnreachable', params: { url: IYZICO_BASE_URL } };
    // A signed look-up of a token nobody has: refused for bad credentials, "not found" for good ones.
    const signed = Answer.safeParse(await request('checkoutForm', 'retrieve', { locale: 'en', token: randomUUID() }));
    if (!signed.success || AUTHENTICATION_ERRORS.has(signed.data.errorCode ?? ''))
      return { status: 'fail', detail: 'doctor.iyzicoRefused', params: { mode, url: IYZICO_BASE_URL } };
    return { status: 'ok', detail: 'doctor.iyzicoOk', params: { mode, url: `${siteUrl()}/api/payments/iyzico/webhook` } };
  },
};
