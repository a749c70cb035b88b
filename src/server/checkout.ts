import type { APIContext, AstroGlobal } from 'astro';
import { startCheckout } from '../../functions/orders/checkout.ts';
import { CHECKOUT_ACCESS_COOKIE, CHECKOUT_ACCESS_TTL_S, grantCheckoutAccess } from '../../functions/orders/checkout-access.ts';
import { consumeAll, LIMITS, targetKey } from '../../functions/limits/limits.ts';
import { env } from '../../functions/env.ts';
import { log, requestId } from '../../functions/log.ts';
import { clientIp } from './client-ip.ts';
import { currentUser } from './guards.ts';
import { courseUrl } from '../lib/course-links.ts';
import { localizedPath, type Language } from '../i18n/languages.ts';
import type { Currency } from '../lib/course-filters.ts';
import { failureStatus, readText } from '../lib/http.ts';
import type { MessageKey } from '../i18n/i18n.ts';
import { CheckoutRequestSchema, type AppliedCode, type CheckoutRequest } from '../lib/checkout.schema.ts';
import type { Failure } from '../lib/result.ts';
import { apiAnswer, type ApiFailure } from '../lib/api-client.ts';
import { POST as quoteRoute } from '../pages/api/checkout/quote.ts';
import { callEndpoint, keptValues, seeOther, type PageContext } from './form-post.ts';
import { countryName } from '../lib/countries.ts';
import { recordCheckoutSource } from '../../functions/funnel/checkout-sources.ts';
import { sourceOfReferrer } from '../lib/funnel-source.ts';
import { siteOrigin } from './site.ts';
import { fieldErrors, type FieldErrors } from '../lib/field-errors.ts';
import { GIFT_FIELDS, type PostedGift } from '../lib/gift.schema.ts';

/** What a checkout comes to, for the JSON endpoint (the island) and the page's own form post (no script). */
export type CheckoutAnswer =
  | { kind: 'go'; url: string }
  | { kind: 'already_owned'; courseUrl: string }
  /** The use case's refusal: the course gone, not for sale now, a box or a code (at its field). */
  | { kind: 'refused'; failure: Failure }
  | { kind: 'too_many'; retryAfterS: number }
  | { kind: 'failed' };

export async function checkout(context: APIContext | AstroGlobal, data: CheckoutRequest): Promise<CheckoutAnswer> {
  // Every checkout may mail the address (the course, or "you already own it") and makes rows.
  const client = clientIp(context.request, context.clientAddress);
  const verdict = await consumeAll([
    [LIMITS.checkoutPerClient, client],
    [LIMITS.checkoutPerAddress, targetKey(data.email)],
  ]);
  if (!verdict.allowed) return { kind: 'too_many', retryAfterS: verdict.retryAfterS };
  try {
    const result = await startCheckout(data, await currentUser(context), { clientIp: client });
    if (!result.ok) return { kind: 'refused', failure: result };
    const started = result.value;
    if (started.kind === 'already_owned') return { kind: 'already_owned', courseUrl: courseUrl(data.language, started.courseId) };
    if (started.kind === 'sent_to_owner') return { kind: 'go', url: localizedPath(data.language, '/checkout/sent') };
    await recordCheckoutSource(
      started.paymentId,
      sourceOfReferrer(context.request.headers.get('referer'), [context.url.origin, siteOrigin().origin]),
    );
    // This browser, and only it, may download the course from the success page (checkout-access.ts).
    context.cookies.set(
      CHECKOUT_ACCESS_COOKIE,
      grantCheckoutAccess(context.cookies.get(CHECKOUT_ACCESS_COOKIE)?.value, started.paymentId),
      { path: '/', httpOnly: true, sameSite: 'lax', secure: env().NODE_ENV === 'production', maxAge: CHECKOUT_ACCESS_TTL_S },
    );
    return { kind: 'go', url: started.url };
  } catch (error) {
    log.error({ reqId: requestId(context.request), err: error }, 'checkout failed');
    return { kind: 'failed' };
  }
}

const MAX_FORM_BYTES = 16 * 1024;

/**
 * What the checkout form's post asks: to pay (or enrol), to apply or remove the discount code, or to
 * show the totals for a named price (buttons the island handles itself once it runs).
 */
export type CheckoutIntent = 'pay' | 'apply-code' | 'remove-code' | 'update-price';

/** What a checkout form posted before (or without) its script says, checked by the island's own schemas. */
export interface PostedCheckout {
  intent: CheckoutIntent;
  values: Record<string, string>;
  /** The boxes as they were ticked, shown ticked again when the form comes back. */
  checked: { acceptTerms: boolean; waiveWithdrawal: boolean; sendNews: boolean };
  request: CheckoutRequest | undefined;
  /** The first message to show, when the post does not parse. */
  problem: MessageKey | undefined;
  /** The answer's status when it is refused: 400, or 413 for a body past the form's size. */
  status: 400 | 413;
  /** A gift's fields as posted and their errors (decision 52); none when the checkout is not a gift. */
  gift?: PostedGift | undefined;
}

export async function readCheckoutForm(request: Request, target: CheckoutTarget): Promise<PostedCheckout> {
  const read = await readText(request, MAX_FORM_BYTES);
  const checked = { acceptTerms: false, waiveWithdrawal: false, sendNews: false };
  if ('response' in read)
    return {
      intent: 'pay',
      values: {},
      checked,
      request: undefined,
      problem: 'errors.badRequest',
      status: read.response.status === 413 ? 413 : 400,
    };
  const form = new URLSearchParams(read.text);
  const values = Object.fromEntries(
    [...TEXT_FIELDS, ...BILLING_FIELDS, ...TAX_FIELDS, ...GIFT_FIELDS].map((name) => [
      name,
      (form.get(name) ?? '').slice(0, 1000),
    ]),
  );
  checked.acceptTerms = form.get('acceptTerms') === 'on';
  checked.waiveWithdrawal = form.get('waiveWithdrawal') === 'on';
  checked.sendNews = form.get('sendNews') === 'on';
  const intent = intentOf(form.get('intent'));
  // Asked for tax, "country" is the tax fields' country code, which the billing details take by name.
  const billing = Object.fromEntries(BILLING_FIELDS.map((name) => [name, values[name]]));
  if (target.askTax) billing.country = values.country ? countryName(values.country, target.language) : '';
  const parsed = CheckoutRequestSchema.safeParse({
    email: values.email,
    fullName: values.fullName,
    discountCode: values.discountCode,
    // Only a pay-what-you-want course's form has the field.
    ...(form.has('price') ? { price: values.price } : {}),
    ...checked,
    courseId: target.courseId,
    language: target.language,
    currency: target.currency,
    ...(target.askBilling ? { billing } : {}),
    ...(target.askTax ? postedTax(values, form) : {}),
    ...(target.gift ? { gift: true, giftTo: values.giftTo, giftMessage: values.giftMessage, giftDate: values.giftDate } : {}),
  });
  const gift = (errors: FieldErrors) =>
    target.gift ? { values: keptValues(values, GIFT_FIELDS) as PostedGift['values'], errors: pickGiftErrors(errors) } : undefined;
  const answered = { intent, values, checked, status: 400 } as const;
  if (parsed.success) return { ...answered, request: parsed.data, problem: undefined, gift: gift({}) };
  return {
    ...answered,
    request: undefined,
    problem: parsed.error.issues[0]?.message as MessageKey | undefined,
    gift: gift(fieldErrors(parsed.error)),
  };
}

/** Where a checkout form posts: its course and language, and what the page asks besides the buyer's details. */
export interface CheckoutTarget {
  courseId: string;
  language: Language;
  /** The currency a bundle is bought in (the page's `?currency=`). */
  currency?: Currency | undefined;
  askBilling: boolean;
  askTax: boolean;
  /** Bought as a gift (`?gift` on the page): the gift's fields are read and required. */
  gift: boolean;
}

const pickGiftErrors = (errors: FieldErrors): FieldErrors =>
  Object.fromEntries(GIFT_FIELDS.filter((name) => errors[name]).map((name) => [name, errors[name]]));

/** Which of the form's submit buttons sent it; Enter in a field presses its first, a hidden "pay". */
function intentOf(button: string | null): CheckoutIntent {
  return button === 'apply-code' || button === 'remove-code' || button === 'update-price' ? button : 'pay';
}

/** "Apply" posted without the script: the island's own request to the quote endpoint, in-process. */
export async function quotePosted(
  page: PageContext,
  target: { courseId: string; language: Language; currency?: Currency | undefined },
  discountCode: string,
  price: string | undefined,
): Promise<{ applied: AppliedCode } | { failure: ApiFailure }> {
  const response = await callEndpoint(quoteRoute, page, '/api/checkout/quote', { ...target, discountCode, price });
  const result = await apiAnswer<AppliedCode>(response);
  if (!result.ok) return { failure: result };
  const { code, discountMinor, totalMinor } = result.data;
  return { applied: { code, discountMinor, totalMinor } };
}

const TEXT_FIELDS = ['email', 'fullName', 'discountCode', 'price'] as const;
const BILLING_FIELDS = ['name', 'surname', 'city', 'country', 'address', 'identityNumber'] as const;
const TAX_FIELDS = ['vatNumber', 'businessName', 'expectedTotalMinor'] as const;

function postedTax(values: Record<string, string>, form: URLSearchParams) {
  const expected = values.expectedTotalMinor ? Number(values.expectedTotalMinor) : undefined;
  return {
    country: values.country,
    vatNumber: values.vatNumber,
    businessName: values.businessName,
    confirmCountry: form.get('confirmCountry') === 'on',
    ...(expected === undefined ? {} : { expectedTotalMinor: expected }),
  };
}

/** The message a refused form post shows, and its status (and for too many checkouts, the wait). */
export function answerProblem(answer: CheckoutAnswer): { status: number; message: MessageKey; retryAfterS?: number } | undefined {
  switch (answer.kind) {
    case 'refused':
      return { status: failureStatus(answer.failure), message: answer.failure.message ?? 'errors.notFound' };
    case 'too_many':
      return { status: 429, message: 'checkout.tooManyWait', retryAfterS: answer.retryAfterS };
    case 'failed':
      return { status: 502, message: 'checkout.failed' };
    default:
      return undefined;
  }
}

/** The checkout page after its form's post: the form again with what it says, or the next page. */
export interface PostedCheckoutPage {
  form: PostedCheckout;
  status?: number | undefined;
  problem?: MessageKey | undefined;
  /** Too many checkouts or code checks from here: the seconds to wait. */
  waitS?: number | undefined;
  applied?: AppliedCode;
  codeRefused?: MessageKey | undefined;
  /** A provider's payment page: reached by a link and a refresh, since the page's CSP lets forms post only to the shop. */
  paymentPage?: string;
}

/**
 * The checkout form posted to its page before (or without) its script: the same checkout as the
 * island's, or the code's Apply and Remove through the same quote endpoint.
 */
export async function checkoutPosted(page: AstroGlobal, target: CheckoutTarget): Promise<Response | PostedCheckoutPage> {
  const form = await readCheckoutForm(page.request, target);
  const code = form.values.discountCode ?? '';
  if (form.intent === 'update-price') return { form };
  if (form.intent === 'remove-code') {
    form.values.discountCode = '';
    return { form };
  }
  if (form.intent === 'apply-code') {
    if (!code.trim()) return { form };
    const quote = await quotePosted(page, target, code, form.values.price || undefined);
    if ('applied' in quote) return { form, applied: quote.applied };
    const { status, fields, message, retryAfterS } = quote.failure;
    return fields.discountCode
      ? { form, status, codeRefused: fields.discountCode }
      : { form, status, problem: message, waitS: retryAfterS };
  }
  if (!form.request) return { form, status: form.status, problem: form.problem };
  const answer = await checkout(page, form.request);
  if (answer.kind === 'go' && new URL(answer.url, page.url).origin === page.url.origin) return seeOther(answer.url);
  if (answer.kind === 'go') return { form, paymentPage: answer.url };
  if (answer.kind === 'already_owned') return seeOther(answer.courseUrl);
  const refused = answerProblem(answer);
  return { form, status: refused?.status, problem: refused?.message, waitS: refused?.retryAfterS };
}
