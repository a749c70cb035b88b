import { createHmac, randomInt, randomUUID } from 'node:crypto';
import http from 'node:http';
import { findFreePort } from '../../functions/db/embedded.ts';

export const FAKE_IYZICO_API_KEY = 'sandbox-fakeIyzicoApiKeyForTests';
export const FAKE_IYZICO_SECRET_KEY = 'sandbox-fakeIyzicoSecretKeyForTests';

/** iyzico's published sandbox test cards (iyzipay-node README, "Mock test cards"). */
export const TEST_CARDS = {
  success: '5528790000000008',
  insufficientFunds: '4111111111111129',
  threeDSecureFailure: '4151111111111112',
} as const;

/** This fake's instalment interest (the real rates are the card programme's): 3 instalments add 4.5 %. */
const INSTALMENT_INTEREST_PERCENT: Record<number, number> = { 1: 0, 2: 3, 3: 4.5, 6: 8, 9: 11, 12: 14 };

interface Form {
  token: string;
  request: InitializeRequest;
  state: 'open' | 'paid' | 'failed';
  payment?: {
    paymentId: string;
    paymentStatus: 'SUCCESS' | 'FAILURE';
    price: number;
    paidPrice: number;
    installment: number;
    fraudStatus: number;
    paidAt: Date;
    refundedMinor: number;
    cancelled: boolean;
  };
  /** Fields a test changed in the retrieve answer (a tampered response), and whether it is signed again. */
  tampered?: { fields: Record<string, string | number>; resign: boolean };
}

interface InitializeRequest {
  locale?: string;
  conversationId?: string;
  price: string;
  paidPrice: string;
  currency: string;
  basketId: string;
  callbackUrl: string;
  enabledInstallments?: number[];
  buyer: Record<string, string>;
  billingAddress: Record<string, string>;
  basketItems: { id: string; name: string; itemType: string; price: string }[];
}

export interface RecordedIyzicoRequest {
  path: string;
  body: Record<string, unknown>;
  /** Whether the IYZWSv2 authorization header verified with the shop's secret. */
  authorized: boolean;
}

const hmac = (secret: string, data: string) => createHmac('sha256', secret).update(data).digest('hex');
const sign = (fields: (string | number | undefined)[], secret: string) =>
  hmac(secret, fields.map((field) => String(field ?? '')).join(':'));
const minor = (value: string | number) => Math.round(Number(value) * 100);
const CURRENCIES = new Set(['TRY', 'USD', 'EUR', 'GBP']);

/**
 * A local HTTP fake of iyzico's API and hosted Checkout Form (iyzico is out of reach here). It checks
 * what iyzico checks: the IYZWSv2 authorization header computed from the request body and the secret
 * key (a wrong key or secret is refused with iyzico's codes 1001/1000), the basket adding up to the
 * price, the currency, the buyer's required fields, and that a form is paid once. It signs answers
 * and notifications as iyzico does, and serves a payment page taking iyzico's sandbox test cards
 * that posts the token back to the shop's callback.
 */
export async function startFakeIyzico({ secretKey = FAKE_IYZICO_SECRET_KEY } = {}) {
  const forms = new Map<string, Form>();
  const requests: RecordedIyzicoRequest[] = [];
  const port = await findFreePort();
  const url = `http://127.0.0.1:${port}`;

  const answer = (fields: Record<string, unknown>) => ({ status: 'success', locale: 'tr', systemTime: Date.now(), ...fields });
  const failure = (errorCode: string, errorMessage: string) => ({
    status: 'failure',
    errorCode,
    errorMessage,
    locale: 'tr',
    systemTime: Date.now(),
  });

  function authorize(req: http.IncomingMessage, path: string, raw: string): ReturnType<typeof failure> | undefined {
    const header = req.headers.authorization ?? '';
    if (!header.startsWith('IYZWSv2 ')) return failure('1001', 'api bilgileri bulunamadı');
    const params = new Map(
      Buffer.from(header.slice('IYZWSv2 '.length), 'base64')
        .toString('utf8')
        .split('&')
        .map((pair) => [pair.slice(0, pair.indexOf(':')), pair.slice(pair.indexOf(':') + 1)] as const),
    );
    if (params.get('apiKey') !== FAKE_IYZICO_API_KEY) return failure('1001', 'api bilgileri bulunamadı');
    const expected = hmac(secretKey, `${params.get('randomKey') ?? ''}${path}${raw}`);
    return params.get('signature') === expected ? undefined : failure('1000', 'Geçersiz imza');
  }

  function initialize(body: InitializeRequest) {
    const basketTotal = body.basketItems?.reduce((sum, item) => sum + minor(item.price), 0) ?? 0;
    if (!CURRENCIES.has(body.currency)) return failure('11', 'Geçersiz istek: currency');
    if (basketTotal === 0 || basketTotal !== minor(body.price))
      return failure('5010', 'Sepet tutarı ile sepetteki ürünlerin toplamı eşit olmalıdır');
    if (minor(body.paidPrice) < minor(body.price)) return failure('11', 'Geçersiz istek: paidPrice');
    if (!body.callbackUrl) return failure('23', 'Callback URL gönderilmesi zorunludur');
    for (const field of ['id', 'name', 'surname', 'email', 'identityNumber', 'registrationAddress', 'ip', 'city', 'country'])
      if (!body.buyer?.[field]) return failure('24', `${field} gönderilmesi zorunludur`);
    if (!/^\d{11}$/.test(body.buyer.identityNumber!)) return failure('10', 'identityNumber en az 11 karakter olmalıdır');
    for (const field of ['contactName', 'city', 'country', 'address'])
      if (!body.billingAddress?.[field]) return failure('24', `billingAddress.${field} gönderilmesi zorunludur`);
    const token = randomUUID();
    forms.set(token, { token, request: body, state: 'open' });
    return answer({
      conversationId: body.conversationId,
      token,
      tokenExpireTime: 1800,
      paymentPageUrl: `${url}/checkout?token=${token}&lang=${body.locale ?? 'tr'}`,
      signature: sign([body.conversationId, token], secretKey),
    });
  }

  function retrieved(form: Form) {
    const { request, payment } = form;
    const fields: Record<string, string | number | undefined> = {
      conversationId: request.conversationId,
      token: form.token,
      basketId: request.basketId,
      currency: request.currency,
      price: payment?.price ?? Number(request.price),
      paidPrice: payment?.paidPrice ?? Number(request.paidPrice),
      installment: payment?.installment ?? 1,
      paymentId: payment?.paymentId,
      paymentStatus: payment?.paymentStatus,
      fraudStatus: payment?.fraudStatus,
      callbackUrl: request.callbackUrl,
      ...form.tampered?.fields,
    };
    const signature = sign(
      [
        fields.paymentStatus,
        fields.paymentId,
        fields.currency,
        fields.basketId,
        fields.conversationId,
        fields.paidPrice,
        fields.price,
        fields.token,
      ],
      secretKey,
    );
    const tamperedAfterSigning = form.tampered && !form.tampered.resign;
    return answer({ ...fields, signature: tamperedAfterSigning ? sign(['tampered'], secretKey) : signature });
  }

  function byPayment(paymentId: unknown): Form | undefined {
    return [...forms.values()].find((form) => form.payment && form.payment.paymentId === String(paymentId));
  }

  const istanbulDay = (date: Date) => date.toLocaleDateString('en-CA', { timeZone: 'Europe/Istanbul' });

  function cancel(body: Record<string, unknown>) {
    const form = byPayment(body.paymentId);
    if (!form?.payment || form.payment.paymentStatus !== 'SUCCESS') return failure('5092', 'Ödeme bulunamadı');
    if (form.payment.cancelled || form.payment.refundedMinor > 0) return failure('5093', 'Ödeme zaten iptal veya iade edildi');
    if (istanbulDay(form.payment.paidAt) !== istanbulDay(new Date()))
      return failure('5094', 'İptal yalnızca ödeme günü yapılabilir, iade kullanın');
    form.payment.cancelled = true;
    return answer({ paymentId: form.payment.paymentId, price: form.payment.paidPrice, currency: form.request.currency });
  }

  function refund(body: Record<string, unknown>) {
    const form = byPayment(body.paymentId);
    if (!form?.payment || form.payment.paymentStatus !== 'SUCCESS' || form.payment.cancelled)
      return failure('5092', 'Ödeme bulunamadı');
    if (body.currency !== form.request.currency) return failure('11', 'Geçersiz istek: currency');
    const asked = minor(String(body.price));
    if (asked <= 0 || form.payment.refundedMinor + asked > minor(form.payment.paidPrice))
      return failure('5095', 'İade tutarı ödenen tutarı aşamaz');
    form.payment.refundedMinor += asked;
    return answer({ paymentId: form.payment.paymentId, price: Number(body.price), currency: form.request.currency });
  }

  function page(form: Form, error?: string): string {
    const { request } = form;
    const options = (request.enabledInstallments ?? [1])
      .map((count) => {
        const total = (minor(request.price) * (100 + (INSTALMENT_INTEREST_PERCENT[count] ?? 0))) / 100 / 100;
        return `<option value="${count}">${count} × ${(total / count).toFixed(2)} = ${total.toFixed(2)} ${request.currency}</option>`;
      })
      .join('');
    const cards = Object.entries(TEST_CARDS)
      .map(([name, number]) => `<li><code>${number}</code> ${name}</li>`)
      .join('');
    return `<!doctype html><html lang="${request.locale ?? 'tr'}"><head><meta charset="utf-8"><title>iyzico (fake) payment</title></head>
<body><main><h1>iyzico (fake) payment</h1>
<p>${request.basketItems.map((item) => item.name).join(', ')}: ${request.price} ${request.currency}</p>
${error ? `<p role="alert">${error}</p>` : ''}
<form method="post" action="/checkout/pay">
<input type="hidden" name="token" value="${form.token}">
<label>Card number <input name="cardNumber" autocomplete="off"></label>
<label>Instalments <select name="installment">${options}</select></label>
<button type="submit">Pay</button>
</form>
<h2>Sandbox test cards</h2><ul>${cards}</ul></main></body></html>`;
  }

  /** iyzico's form posting the token to the shop's callback, as the browser leaves iyzico's page. */
  const postBack = (form: Form) => `<!doctype html><html><head><meta charset="utf-8"><title>iyzico (fake)</title></head>
<body><form id="back" method="post" action="${form.request.callbackUrl}"><input type="hidden" name="token" value="${form.token}">
<noscript><button type="submit">Continue</button></noscript></form>
<script>document.getElementById('back').submit();</script></body></html>`;

  function newPayment(paymentStatus: 'SUCCESS' | 'FAILURE', price: number, paidPrice: number, installment: number) {
    return {
      paymentId: String(randomInt(10_000_000, 99_999_999)),
      paymentStatus,
      price,
      paidPrice,
      installment,
      fraudStatus: paymentStatus === 'SUCCESS' ? 1 : 0,
      paidAt: new Date(),
      refundedMinor: 0,
      cancelled: false,
    };
  }

  function pay(token: string, cardNumber: string, installment = 1): { status: number; html: string } {
    const form = forms.get(token);
    if (!form) return { status: 404, html: '<p>Unknown payment page</p>' };
    // A form is paid (or fails 3-D Secure) once; afterwards its token only answers retrieve calls.
    if (form.state !== 'open') return { status: 409, html: '<p>This payment page has already been used</p>' };
    if (!(form.request.enabledInstallments ?? [1]).includes(installment))
      return { status: 400, html: page(form, 'Invalid instalment') };
    // iyzico shows a declined card on its own page; the buyer may try another one.
    if (cardNumber === TEST_CARDS.insufficientFunds) return { status: 200, html: page(form, 'Not sufficient funds (10051)') };
    const price = Number(form.request.price);
    if (cardNumber === TEST_CARDS.threeDSecureFailure) {
      form.state = 'failed';
      form.payment = newPayment('FAILURE', price, price, installment);
      return { status: 200, html: postBack(form) };
    }
    if (cardNumber !== TEST_CARDS.success) return { status: 200, html: page(form, 'Invalid card number (12)') };
    const paidMinor = Math.round((minor(price) * (100 + (INSTALMENT_INTEREST_PERCENT[installment] ?? 0))) / 100);
    form.state = 'paid';
    form.payment = newPayment('SUCCESS', price, paidMinor / 100, installment);
    return { status: 200, html: postBack(form) };
  }

  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString()));
    req.on('end', () => {
      const target = new URL(req.url ?? '/', url);
      const path = target.pathname;
      const json = (payload: unknown, status = 200) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(payload));
      };
      const html = (body: string, status = 200) => {
        res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' });
        res.end(body);
      };
      if (req.method === 'GET' && path === '/payment/test') return json(answer({}));
      if (req.method === 'GET' && path === '/checkout') {
        const form = forms.get(target.searchParams.get('token') ?? '');
        return form?.state === 'open' ? html(page(form)) : html('<p>This payment page is not valid</p>', 404);
      }
      if (req.method === 'POST' && path === '/checkout/pay') {
        const fields = new URLSearchParams(raw);
        const outcome = pay(
          fields.get('token') ?? '',
          (fields.get('cardNumber') ?? '').replace(/\s/g, ''),
          Number(fields.get('installment') ?? 1),
        );
        return html(outcome.html, outcome.status);
      }
      let body: Record<string, unknown>;
      try {
        body = raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
      } catch {
        return json(failure('11', 'Geçersiz istek'), 400);
      }
      const refused = authorize(req, path, raw || '{}');
      requests.push({ path, body, authorized: !refused });
      if (refused) return json(refused, 401);
      if (req.method === 'POST' && path === '/payment/iyzipos/checkoutform/initialize/auth/ecom')
        return json(initialize(body as unknown as InitializeRequest));
      if (req.method === 'POST' && path === '/payment/iyzipos/checkoutform/auth/ecom/detail') {
        const form = forms.get(String(body.token));
        if (!form) return json(failure('5001', 'Geçersiz token'));
        if (form.state === 'open') return json(failure('5067', 'Ödeme henüz tamamlanmadı'));
        return json(retrieved(form));
      }
      if (req.method === 'POST' && path === '/payment/cancel') return json(cancel(body));
      if (req.method === 'POST' && path === '/v2/payment/refund') return json(refund(body));
      json(failure('11', `Unhandled ${req.method} ${path}`), 404);
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));

  return {
    url,
    /** The shop's settings that point it at this fake. */
    settings: { IYZICO_API_KEY: FAKE_IYZICO_API_KEY, IYZICO_SECRET_KEY: secretKey, IYZICO_BASE_URL: url },
    requests,
    forms,
    /** Pays a form as the buyer would on the hosted page; returns the page's HTML (the post-back on success). */
    pay,
    /** The callback post the hosted page sends for a token (what the browser would submit). */
    callbackOf(token: string) {
      const form = forms.get(token);
      if (!form) throw new Error(`no form ${token}`);
      return { url: form.request.callbackUrl, body: new URLSearchParams({ token }).toString() };
    },
    /** Changes what retrieve answers for a token: re-signed (the amounts of another payment) or not (altered on the way). */
    tamper(token: string, fields: Record<string, string | number>, { resign }: { resign: boolean }) {
      forms.get(token)!.tampered = { fields, resign };
    },
    /** Moves a payment to an earlier day: it can then only be refunded, not cancelled. */
    age(token: string, days: number) {
      const payment = forms.get(token)!.payment!;
      payment.paidAt = new Date(payment.paidAt.getTime() - days * 24 * 60 * 60 * 1000);
    },
    /** A Checkout Form notification as iyzico posts it, signed with X-IYZ-SIGNATURE-V3 (by another secret to forge one). */
    notification(token: string, { secret = secretKey }: { secret?: string } = {}) {
      const form = forms.get(token)!;
      const body = {
        paymentConversationId: form.request.conversationId ?? '',
        merchantId: 3382172,
        token,
        status: form.payment?.paymentStatus ?? 'FAILURE',
        iyziReferenceCode: randomUUID(),
        iyziEventType: 'CHECKOUT_FORM_AUTH',
        iyziEventTime: Date.now(),
        iyziPaymentId: Number(form.payment?.paymentId ?? 0),
      };
      const signature = hmac(
        secret,
        `${secret}${body.iyziEventType}${body.iyziPaymentId}${body.token}${body.paymentConversationId}${body.status}`,
      );
      return { body: JSON.stringify(body), headers: { 'content-type': 'application/json', 'x-iyz-signature-v3': signature } };
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type FakeIyzico = Awaited<ReturnType<typeof startFakeIyzico>>;
