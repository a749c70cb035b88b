import { randomBytes, randomUUID } from 'node:crypto';
import { db } from '../db/database.ts';
import { adoptDetachedPurchases } from '../purchases/library.ts';
import { getActiveCourse } from '../catalogue/catalogue.ts';
import { paymentProvider, paymentsAvailable, successUrl } from '../payments/provider.ts';
import { queueMaterialsMail } from './materials.ts';
import type { CheckoutRequest } from '../../src/lib/checkout.schema.ts';
import type { Language } from '../../src/i18n/languages.ts';
import type { SessionUser } from '../auth/session.ts';

export type CheckoutResult =
  | { kind: 'redirect'; url: string; paymentId: string }
  /** A signed-in buyer who owns the course already. */
  | { kind: 'already_owned'; courseId: string }
  /** A guest whose address owns the course already: the owner is e-mailed their link; the visitor is told only to check their mail. */
  | { kind: 'sent_to_owner' }
  | { kind: 'course_not_found' }
  /** A paid course while no payment provider is configured: nobody is sent to a payment that fails. */
  | { kind: 'not_for_sale' };

const FREE_PREFIX = 'free_';

/** A permanent, unguessable download link token for a purchase. */
export function newDownloadToken(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * Starts a checkout. Prices come from the database; the browser sends only ids. A free course is
 * completed here in one transaction (purchase + materials mail); a paid one becomes a pending order
 * and a payment page: it completes only when the payment provider confirms (fulfilment.ts).
 */
export async function startCheckout(request: CheckoutRequest, sessionUser: SessionUser | undefined): Promise<CheckoutResult> {
  const course = await getActiveCourse(request.courseId, request.language);
  if (!course) return { kind: 'course_not_found' };
  if (course.priceMinor > 0 && !paymentsAvailable()) return { kind: 'not_for_sale' };
  const buyer = sessionUser
    ? { id: sessionUser.id, email: sessionUser.email }
    : await findOrCreateBuyer(request.email, request.fullName, request.language);
  const guest = !sessionUser;
  const owned = await completedPurchaseOf(buyer.id, course.id);
  if (owned) return guest ? resendMaterials(owned) : { kind: 'already_owned', courseId: course.id };

  if (course.priceMinor === 0) {
    const paymentId = `${FREE_PREFIX}${Date.now()}_${randomUUID()}`;
    const completed = await db()
      .transaction()
      .execute(async (trx) => {
        const purchase = await trx
          .insertInto('purchases')
          .values({
            user_id: buyer.id,
            course_id: course.id,
            email: buyer.email,
            full_name: request.fullName,
            language: request.language,
            status: 'completed',
            provider: 'free',
            guest,
            payment_id: paymentId,
            amount_minor: 0,
            currency: course.currency,
            download_token: newDownloadToken(),
            completed_at: new Date(),
          })
          // Two tabs enrolling at once: the partial unique index keeps one.
          .onConflict((conflict) => conflict.columns(['user_id', 'course_id']).where('status', '=', 'completed').doNothing())
          .returning('id')
          .executeTakeFirst();
        if (purchase) await queueMaterialsMail(trx, purchase.id);
        return Boolean(purchase);
      });
    if (!completed) return startCheckout(request, sessionUser);
    return { kind: 'redirect', url: successUrl(request.language, course.id, paymentId), paymentId };
  }

  const provider = paymentProvider();
  const order = await db()
    .insertInto('purchases')
    .values({
      user_id: buyer.id,
      course_id: course.id,
      email: buyer.email,
      full_name: request.fullName,
      language: request.language,
      status: 'pending',
      provider: provider.name,
      guest,
      amount_minor: course.priceMinor,
      currency: course.currency,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const checkout = await provider.createCheckout({
    orderId: order.id,
    courseId: course.id,
    courseTitle: course.title,
    amountMinor: course.priceMinor,
    currency: course.currency,
    email: buyer.email,
    language: request.language,
  });
  await db()
    .updateTable('purchases')
    .set({ payment_id: checkout.paymentId, updated_at: new Date() })
    .where('id', '=', order.id)
    .execute();
  return { kind: 'redirect', url: checkout.url, paymentId: checkout.paymentId };
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

async function resendMaterials(purchaseId: string): Promise<CheckoutResult> {
  await db()
    .transaction()
    .execute((trx) => queueMaterialsMail(trx, purchaseId));
  return { kind: 'sent_to_owner' };
}

/**
 * The account for a checkout e-mail: the existing one, or a new one created silently. A silent
 * account has no password at all (the spec's "random password", minus hashing a secret nobody will
 * ever type): the buyer gets the course by e-mail, and "forgot password" gives the account one.
 */
async function findOrCreateBuyer(email: string, fullName: string, language: Language): Promise<{ id: string; email: string }> {
  const normalized = email.trim().toLowerCase();
  const created = await db()
    .insertInto('users')
    .values({ email: normalized, full_name: fullName, email_verified: false, language })
    .onConflict((conflict) => conflict.column('email').doNothing())
    .returning(['id', 'email'])
    .executeTakeFirst();
  if (created) await adoptDetachedPurchases(db(), created.id, normalized);
  return (
    created ?? (await db().selectFrom('users').select(['id', 'email']).where('email', '=', normalized).executeTakeFirstOrThrow())
  );
}
