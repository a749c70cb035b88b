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
import { failureStatus, readText } from '../lib/http.ts';
import type { MessageKey } from '../i18n/i18n.ts';
import { CheckoutRequestSchema, type CheckoutRequest } from '../lib/checkout.schema.ts';
import type { Failure } from '../lib/result.ts';

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
  target: { courseId: string; language: Language; askBilling: boolean },
): Promise<PostedCheckout> {
  const read = await readText(request, MAX_FORM_BYTES);
  if ('response' in read)
    return { values: {}, request: undefined, problem: 'errors.badRequest', status: read.response.status === 413 ? 413 : 400 };
  const form = new URLSearchParams(read.text);
  const values = Object.fromEntries(
    [...TEXT_FIELDS, ...BILLING_FIELDS].map((name) => [name, (form.get(name) ?? '').slice(0, 1000)]),
  );
  const parsed = CheckoutRequestSchema.safeParse({
    email: values.email,
    fullName: values.fullName,
    discountCode: values.discountCode,
    acceptTerms: form.get('acceptTerms') === 'on',
    waiveWithdrawal: form.get('waiveWithdrawal') === 'on',
    courseId: target.courseId,
    language: target.language,
    ...(target.askBilling ? { billing: Object.fromEntries(BILLING_FIELDS.map((name) => [name, values[name]])) } : {}),
  });
  if (parsed.success) return { values, request: parsed.data, problem: undefined, status: 400 };
  return { values, request: undefined, problem: parsed.error.issues[0]?.message as MessageKey | undefined, status: 400 };
}

const TEXT_FIELDS = ['email', 'fullName', 'discountCode'] as const;
const BILLING_FIELDS = ['name', 'surname', 'city', 'country', 'address', 'identityNumber'] as const;

/** The message a refused form post shows, and its status. */
export function answerProblem(answer: CheckoutAnswer): { status: number; message: MessageKey } | undefined {
  switch (answer.kind) {
    case 'refused':
      return { status: failureStatus(answer.failure), message: answer.failure.message ?? 'errors.notFound' };
    case 'too_many':
      return { status: 429, message: 'errors.tooManyRequests' };
    case 'failed':
      return { status: 502, message: 'checkout.failed' };
    default:
      return undefined;
  }
}
