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
import { readText } from '../lib/http.ts';
import type { MessageKey } from '../i18n/i18n.ts';
import { CheckoutRequestSchema, type CheckoutRequest } from '../lib/checkout.schema.ts';
import type { Failure } from '../lib/result.ts';
import { countryName } from '../lib/countries.ts';

/** What a checkout comes to, for the JSON endpoint (the island) and the page's own form post (no script). */
export type CheckoutAnswer =
  | { kind: 'go'; url: string }
  | { kind: 'already_owned'; courseUrl: string }
  | { kind: 'refused'; failure: Failure }
  | { kind: 'not_found' }
  | { kind: 'not_for_sale' }
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
    if (result.kind === 'refused') return result;
    if (result.kind === 'course_not_found') return { kind: 'not_found' };
    if (result.kind === 'not_for_sale') return result;
    if (result.kind === 'already_owned') return { kind: 'already_owned', courseUrl: courseUrl(data.language, result.courseId) };
    if (result.kind === 'sent_to_owner') return { kind: 'go', url: localizedPath(data.language, '/checkout/sent') };
    // This browser, and only it, may download the course from the success page (checkout-access.ts).
    context.cookies.set(
      CHECKOUT_ACCESS_COOKIE,
      grantCheckoutAccess(context.cookies.get(CHECKOUT_ACCESS_COOKIE)?.value, result.paymentId),
      { path: '/', httpOnly: true, sameSite: 'lax', secure: env().NODE_ENV === 'production', maxAge: CHECKOUT_ACCESS_TTL_S },
    );
    return { kind: 'go', url: result.url };
  } catch (error) {
    log.error({ reqId: requestId(context.request), err: error }, 'checkout failed');
    return { kind: 'failed' };
  }
}

const MAX_FORM_BYTES = 16 * 1024;

/** What a checkout form posted before (or without) its script says, checked by the island's own schemas. */
export interface PostedCheckout {
  values: Record<string, string>;
  request: CheckoutRequest | undefined;
  /** The first message to show, when the post does not parse. */
  problem: MessageKey | undefined;
  /** The answer's status when it is refused: 400, or 413 for a body past the form's size. */
  status: 400 | 413;
}

export async function readCheckoutForm(
  request: Request,
  target: { courseId: string; language: Language; askBilling: boolean; askTax: boolean },
): Promise<PostedCheckout> {
  const read = await readText(request, MAX_FORM_BYTES);
  if ('response' in read)
    return { values: {}, request: undefined, problem: 'errors.badRequest', status: read.response.status === 413 ? 413 : 400 };
  const form = new URLSearchParams(read.text);
  const values = Object.fromEntries(
    [...TEXT_FIELDS, ...BILLING_FIELDS, ...TAX_FIELDS].map((name) => [name, (form.get(name) ?? '').slice(0, 1000)]),
  );
  // Asked for tax, "country" is the tax fields' country code, which the billing details take by name.
  const billing = Object.fromEntries(BILLING_FIELDS.map((name) => [name, values[name]]));
  if (target.askTax) billing.country = values.country ? countryName(values.country, target.language) : '';
  const parsed = CheckoutRequestSchema.safeParse({
    email: values.email,
    fullName: values.fullName,
    discountCode: values.discountCode,
    acceptTerms: form.get('acceptTerms') === 'on',
    waiveWithdrawal: form.get('waiveWithdrawal') === 'on',
    courseId: target.courseId,
    language: target.language,
    ...(target.askBilling ? { billing } : {}),
    ...(target.askTax ? postedTax(values, form) : {}),
  });
  if (parsed.success) return { values, request: parsed.data, problem: undefined, status: 400 };
  return { values, request: undefined, problem: parsed.error.issues[0]?.message as MessageKey | undefined, status: 400 };
}

const TEXT_FIELDS = ['email', 'fullName', 'discountCode'] as const;
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

/** The message a refused form post shows, and its status. */
export function answerProblem(answer: CheckoutAnswer): { status: number; message: MessageKey } | undefined {
  switch (answer.kind) {
    case 'refused':
      return { status: 400, message: 'message' in answer.failure ? answer.failure.message : 'errors.badRequest' };
    case 'not_for_sale':
      return { status: 503, message: 'course.notForSaleNow' };
    case 'too_many':
      return { status: 429, message: 'errors.tooManyRequests' };
    case 'failed':
      return { status: 502, message: 'checkout.failed' };
    default:
      return undefined;
  }
}
