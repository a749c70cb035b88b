import { sql, type Transaction } from 'kysely';
import { courseTitleIn } from '../catalogue/bundle-texts.ts';
import type { Database } from '../db/schema.ts';
import { queueMailToRender } from '../mail/template.ts';
import { giftMail, giftReceipt } from '../mail/templates/index.ts';
import { signInLinkUrl } from '../auth/sign-in-link.ts';
import { LINK_TOKEN_SLOT } from '../auth/link-tokens.ts';
import { receiptLink } from './materials.ts';
import { orderReference } from './orders.ts';
import { documentNumber } from './numbering.ts';
import { giftDeliveryDay } from './gift-rows.ts';
import { siteUrl } from '../env.ts';
import { asLanguage, localizedPath } from '../../src/i18n/languages.ts';
import { formatGiftDay } from '../../src/lib/gift-day.ts';
import { formatMoney } from '../../src/lib/money.ts';
import { formatDate } from '../../src/lib/dates.ts';

/** What both gift mails need: the gift and its order. */
function giftForMail(trx: Transaction<Database>, where: { giftId: string } | { orderId: string }) {
  return trx
    .selectFrom('gifts')
    .innerJoin('purchases', 'purchases.id', 'gifts.order_id')
    .innerJoin('courses', 'courses.id', 'purchases.course_id')
    .selectAll('gifts')
    .select([
      'purchases.email',
      'purchases.full_name',
      'purchases.language as order_language',
      'purchases.amount_minor',
      'purchases.currency',
      'purchases.download_token',
      'purchases.completed_at',
      'purchases.receipt_number',
      'purchases.discount_code',
      'purchases.discount_minor',
      // A bundle's title in the order's language (decision 44).
      courseTitleIn(sql.ref('purchases.language')).as('title'),
      giftDeliveryDay.as('deliver_day'),
    ])
    .where('giftId' in where ? 'gifts.id' : 'gifts.order_id', '=', 'giftId' in where ? where.giftId : where.orderId)
    .executeTakeFirstOrThrow();
}

/**
 * The recipient's mail, in the language the buyer chose, with a sign-in link minted as it leaves:
 * it proves the address (the gift is a guest purchase of that account) and opens My Courses.
 */
export async function queueGiftMail(trx: Transaction<Database>, giftId: string): Promise<void> {
  const gift = await giftForMail(trx, { giftId });
  const language = asLanguage(gift.language);
  await queueMailToRender(
    trx,
    giftMail,
    {
      from: gift.full_name || gift.email,
      courseTitle: gift.title,
      message: gift.message,
      signInUrl: signInLinkUrl(LINK_TOKEN_SLOT, language),
    },
    { to: gift.recipient_email, language },
    { kind: 'sign_in', email: gift.recipient_email },
  );
}

/** The buyer's receipt of a gift, in their checkout's language, queued in the transaction that completed it. */
export async function queueGiftReceiptMail(trx: Transaction<Database>, orderId: string): Promise<void> {
  const gift = await giftForMail(trx, { orderId });
  const language = asLanguage(gift.order_language);
  await queueMailToRender(
    trx,
    giftReceipt,
    {
      name: gift.full_name || gift.email,
      courseTitle: gift.title,
      recipient: gift.recipient_email,
      deliverOn: formatGiftDay(gift.deliver_day, language),
      amount: gift.amount_minor === 0 ? undefined : formatMoney(gift.amount_minor, gift.currency, language),
      date: formatDate(gift.completed_at ?? new Date(), language),
      reference: orderReference(gift.order_id),
      receipt:
        gift.receipt_number === null
          ? undefined
          : { number: documentNumber('receipt', gift.receipt_number), url: receiptLink(gift.download_token!) },
      discount: gift.discount_code
        ? { code: gift.discount_code, amount: formatMoney(gift.discount_minor, gift.currency, language) }
        : undefined,
      giftsUrl: `${siteUrl()}${localizedPath(language, '/dashboard')}#gifts`,
    },
    { to: gift.email, language },
  );
}
