import { randomUUID } from 'node:crypto';
import type { Transaction } from 'kysely';
import { subscribeAtCheckout } from '../audience/checkout.ts';
import { db, type Db } from '../db/database.ts';
import type { Database } from '../db/schema.ts';
import { findOrCreateAccount } from './accounts.ts';
import { courseForSale } from '../catalogue/course-for-sale.ts';
import { successUrl } from '../payments/provider.ts';
import { paymentsAvailable } from '../payments/registry.ts';
import { providerTakingCurrency } from '../shop/payment-choices.ts';
import { queueMaterialsMail } from './materials.ts';
import { priceWithCode, takeCode, type CodeHolder, type Quote, type TakeOutcome } from '../discounts/discounts.ts';
import { mailboxKey } from '../mail/mailbox-key.ts';
import { orderConsent } from './consent.ts';
import { newDownloadToken, onceCompleted } from './orders.ts';
import type { CheckoutRequest } from '../../src/lib/checkout.schema.ts';
import { localizedPath } from '../../src/i18n/languages.ts';
import { invalid, notFoundAs, ok, unavailable, type Failure, type Result } from '../../src/lib/result.ts';
import type { SessionUser } from '../auth/session.ts';
import { orderTax, taxColumns } from './order-tax.ts';
import { withNamedPrice } from './named-price.ts';
import { grantBundleCourses, priceForBuyer } from './bundles.ts';
import { giftOf, recordGift } from './gifts.ts';
import { queueGiftReceiptMail } from './gift-mail.ts';

/**
 * Where a checkout goes. Refused (a `Failure`): the course is gone; it is paid while no payment
 * provider takes it (nobody is sent to a payment that fails); a box left unticked, or a discount code
 * that does not apply (said at its field).
 */
export type CheckoutStarted =
  | { kind: 'redirect'; url: string; paymentId: string }
  /** A signed-in buyer who owns the course already. */
  | { kind: 'already_owned'; courseId: string }
  /** A guest whose address owns the course already: the owner is e-mailed their link; the visitor is told only to check their mail. */
  | { kind: 'sent_to_owner' };

const COURSE_NOT_FOUND = notFoundAs('course_not_found', 'checkout.courseNotFound');
const NOT_FOR_SALE = unavailable('payments_unavailable', 'course.notForSaleNow', 'here');

/** Where the request came from, recorded with the buyer's consent. */
export interface CheckoutContext {
  clientIp: string;
}

const FREE_PREFIX = 'free_';

/**
 * Starts a checkout. Prices come from the database; the browser sends only ids (and the price a
 * pay-what-you-want buyer names, checked against the course's minimum). A free course is
 * completed here in one transaction (purchase + materials mail); a paid one becomes a pending order
 * and a payment page: it completes only when the payment provider confirms (fulfilment.ts).
 */
export async function startCheckout(
  request: CheckoutRequest,
  sessionUser: SessionUser | undefined,
  context: CheckoutContext,
): Promise<Result<CheckoutStarted>> {
  const active = await courseForSale(request.courseId, request.language, request.currency);
  if (!active) return COURSE_NOT_FOUND;
  const gift = giftOf(request);
  // A bundle costs a signed-in buyer less by the courses they own; owning them all, there is nothing to
  // buy. Not a gift: it is for someone else, whose library the shop does not look into (decision 52).
  const forBuyer = await priceForBuyer(active, gift ? undefined : sessionUser?.id);
  if (forBuyer.ownsAll) return ok({ kind: 'already_owned', courseId: active.id });
  const priced = withNamedPrice(forBuyer.course, request.price);
  if (!priced.ok) return priced;
  const course = priced.value;
  if (course.priceMinor > 0 && !paymentsAvailable()) return NOT_FOR_SALE;
  // Checked before any account is made for a guest's address: a refusal leaves nothing behind.
  const quote = await priceWithCode(course, request.discountCode, sessionUser?.email ?? request.email);
  if (!quote.ok) return quote;
  // A paid order is delivered at once: the buyer must ask for that, waiving withdrawal (EU, Turkey).
  if (quote.value.totalMinor > 0 && !request.waiveWithdrawal)
    return invalid('withdrawal_required', 'checkout.withdrawalRequired', { waiveWithdrawal: 'checkout.withdrawalRequired' });
  // The provider is known before anything is written: one that needs billing details gets them.
  const provider = quote.value.totalMinor > 0 ? await providerTakingCurrency(course.currency) : undefined;
  if (quote.value.totalMinor > 0 && !provider) return NOT_FOR_SALE;
  if (provider?.needsBillingDetails && !request.billing) return billingRequired;
  // The tax for the buyer's country, and the total they were shown, before anything is written.
  const taxed =
    quote.value.totalMinor > 0 ? await orderTax(request, course.id, quote.value.totalMinor, context.clientIp) : undefined;
  if (taxed && !taxed.ok) return taxed;
  const chargeMinor = taxed?.value.line.grossMinor ?? quote.value.totalMinor;
  const buyer = sessionUser
    ? { id: sessionUser.id, email: sessionUser.email }
    : await findOrCreateAccount(db(), request.email, request.fullName, request.language);
  const guest = !sessionUser;
  // A gift is for someone else: its buyer may own the course, or give it twice. A new account that
  // adopted no earlier order owns nothing yet.
  const owned = gift || 'ownsNothing' in buyer ? undefined : await completedPurchaseOf(buyer.id, course.id);
  if (owned) return guest ? resendMaterials(owned) : ok({ kind: 'already_owned', courseId: course.id });
  const consent = await orderConsent(request, course, quote.value, buyer.email, context.clientIp, provider?.label);
  const holder: CodeHolder = { email: buyer.email, clientIp: context.clientIp };
  const order = {
    // A gift's order is in nobody's library (gifts.ts); its gift row names the buyer.
    user_id: gift ? null : buyer.id,
    course_id: course.id,
    email: buyer.email,
    full_name: request.fullName,
    language: request.language,
    guest: gift ? false : guest,
    currency: course.currency,
    amount_minor: chargeMinor,
    ...(taxed ? taxColumns(taxed.value) : {}),
    buyer_key: mailboxKey(buyer.email),
    ...discountColumns(quote.value),
    consent: JSON.stringify(consent.consent),
    contracts: consent.contracts ? JSON.stringify(consent.contracts) : null,
    billing: provider?.needsBillingDetails && request.billing ? JSON.stringify(request.billing) : null,
  };

  // The unticked "send me news" box, ticked: the sign-up forms' double opt-in, committed with the order.
  const askedForNews = (trx: Transaction<Database>) =>
    request.sendNews
      ? subscribeAtCheckout(trx, {
          email: buyer.email,
          language: request.language,
          page: localizedPath(request.language, `/checkout/${course.id}`),
          clientIp: context.clientIp,
        })
      : Promise.resolve();

  if (quote.value.totalMinor === 0) {
    const paymentId = `${FREE_PREFIX}${Date.now()}_${randomUUID()}`;
    const completed = await db()
      .transaction()
      .execute(async (trx) => {
        const code = quote.value.codeId ? await takeCode(trx, quote.value.codeId, holder) : 'taken';
        if (code !== 'taken') return codeRefusals[code];
        const purchase = await trx
          .insertInto('purchases')
          .values({
            ...order,
            status: 'completed',
            provider: 'free',
            payment_id: paymentId,
            download_token: newDownloadToken(),
            completed_at: new Date(),
          })
          // Two tabs enrolling at once: the partial unique index keeps one.
          .onConflict(onceCompleted)
          .returning('id')
          .executeTakeFirst();
        if (!purchase) throw new EnrolledMeanwhile();
        if (gift) await recordGift(trx, purchase.id, { id: buyer.id, guest }, gift, request.language);
        // A gift's bundle grants its courses to the recipient on the day (gifts.ts), not to this order.
        else await grantBundleCourses(trx, purchase.id);
        await (gift ? queueGiftReceiptMail : queueMaterialsMail)(trx, purchase.id);
        await askedForNews(trx);
        return 'completed' as const;
      })
      .catch((error: unknown) => {
        if (error instanceof EnrolledMeanwhile) return 'raced' as const;
        return codeAlreadyUsedOnRace(error);
      });
    if (typeof completed === 'object') return completed;
    if (completed === 'raced') return startCheckout(request, sessionUser, context);
    return ok({ kind: 'redirect', url: successUrl(request.language, course.id, paymentId), paymentId });
  }

  if (!provider) return NOT_FOR_SALE;
  // The payment page first, for the order's id chosen here: the order is then written once, with its
  // payment. Nobody can pay a page before its order exists: its address is only given below.
  const orderId = randomUUID();
  const checkout = await provider.createCheckout({
    orderId,
    courseId: course.id,
    courseTitle: course.title,
    amountMinor: chargeMinor,
    currency: course.currency,
    email: buyer.email,
    language: request.language,
    clientIp: context.clientIp,
    billing: request.billing,
  });
  const insertPending = (database: Db) =>
    database
      .insertInto('purchases')
      .values({
        ...order,
        id: orderId,
        status: 'pending',
        provider: provider.name,
        payment_id: checkout.reference,
        // The code's use is held exactly as long as the payment page can be paid.
        discount_held_until: quote.value.codeId ? checkout.expiresAt : null,
        discount_hold_client: quote.value.codeId ? context.clientIp : null,
      })
      .execute();
  // The order alone is one statement: a transaction (three round trips) only when something commits with it.
  const refused =
    quote.value.codeId || request.sendNews || gift
      ? await db()
          .transaction()
          .execute(async (trx) => {
            const code = quote.value.codeId ? await takeCode(trx, quote.value.codeId, holder, true) : 'taken';
            if (code !== 'taken') return codeRefusals[code];
            await insertPending(trx);
            if (gift) await recordGift(trx, orderId, { id: buyer.id, guest }, gift, request.language);
            await askedForNews(trx);
            return undefined;
          })
          .catch(codeAlreadyUsedOnRace)
      : await insertPending(db()).then(() => undefined);
  if (refused) return refused;
  return ok({ kind: 'redirect', url: checkout.url, paymentId: checkout.reference });
}

/** A second tab completed the same free enrolment first: the whole transaction (and its code use) rolls back. */
class EnrolledMeanwhile extends Error {}

const billingRequired = invalid('billing_required', 'checkout.billing.required', { billing: 'checkout.billing.required' });
const codeRefusals = {
  used_up: invalid('code_refused', 'checkout.codeUsedUp', { discountCode: 'checkout.codeUsedUp' }),
  already_used: invalid('code_refused', 'checkout.codeAlreadyUsed', { discountCode: 'checkout.codeAlreadyUsed' }),
  held: invalid('code_refused', 'checkout.codeHeld', { discountCode: 'checkout.codeHeld' }),
} satisfies Record<Exclude<TakeOutcome, 'taken'>, Failure>;

/** Two checkouts of one buyer with a once-per-buyer code at the same moment: the index keeps one. */
function codeAlreadyUsedOnRace(error: unknown): Failure {
  const { code, constraint } = error as { code?: string; constraint?: string };
  if (code === '23505' && constraint === 'purchases_code_once_per_buyer_idx')
    return invalid('code_refused', 'checkout.codeAlreadyUsed', { discountCode: 'checkout.codeAlreadyUsed' });
  throw error;
}

function discountColumns(quote: Quote) {
  return quote.codeId
    ? {
        discount_code_id: quote.codeId,
        discount_code: quote.code ?? null,
        discount_minor: quote.discountMinor,
        discount_once_per_buyer: quote.oncePerBuyer ?? false,
      }
    : {};
}

async function completedPurchaseOf(userId: string, courseId: string): Promise<string | undefined> {
  const row = await db()
    .selectFrom('purchases')
    .select('id')
    .where('user_id', '=', userId)
    .where('course_id', '=', courseId)
    .where('status', '=', 'completed')
    .executeTakeFirst();
  return row?.id;
}

async function resendMaterials(purchaseId: string): Promise<Result<CheckoutStarted>> {
  await db()
    .transaction()
    .execute((trx) => queueMaterialsMail(trx, purchaseId));
  return ok({ kind: 'sent_to_owner' });
}
