import { sql, type Transaction } from 'kysely';
import { courseTitleIn } from '../catalogue/bundle-texts.ts';
import type { Database } from '../db/schema.ts';
import { siteUrl } from '../env.ts';
import { queueMail, type MailRenderedWhenSent } from '../mail/outbox.ts';
import { mailToRender, renderMail } from '../mail/template.ts';
import { courseMaterials, refundNotice } from '../mail/templates/index.ts';
import { orderReference } from './orders.ts';
import { bundleDownloads } from './bundles.ts';
import { signInLinkUrl } from '../auth/sign-in-link.ts';
import { LINK_TOKEN_SLOT } from '../auth/link-tokens.ts';
import { asLanguage } from '../../src/i18n/languages.ts';
import { formatMoney } from '../../src/lib/money.ts';
import { formatDate } from '../../src/lib/dates.ts';
import { getT } from '../../src/i18n/i18n.ts';
import { documentNumber } from './numbering.ts';
import type { OrderContracts } from './consent.ts';
import { offerForMaterialsMail } from '../offers/mail-offer.ts';
import { activeSubscriberOfOrder } from '../audience/checkout.ts';

export function downloadLink(token: string): string {
  return `${siteUrl()}/api/downloads/${token}`;
}

/** The receipt (or credit note) of an order, by the same unguessable token as its download link. */
export function receiptLink(token: string, document: 'receipt' | 'credit-note' = 'receipt'): string {
  return `${siteUrl()}/api/receipts/${token}${document === 'credit-note' ? '?document=credit-note' : ''}`;
}

/**
 * What every after-sale e-mail needs to know about an order, on a query that has `purchases` and
 * `courses`: a select (purchaseForMail), or the update that completes the order (fulfilment.ts).
 */
export const MAIL_PURCHASE = [
  'purchases.id',
  'purchases.email',
  'purchases.full_name',
  'purchases.language',
  'purchases.amount_minor',
  'purchases.currency',
  'purchases.download_token',
  'purchases.completed_at',
  'purchases.receipt_number',
  'purchases.credit_note_number',
  'purchases.discount_code',
  'purchases.discount_minor',
  'purchases.contracts',
  // A bundle's title in the order's language (decision 44).
  courseTitleIn(sql.ref('purchases.language')).as('title'),
  // Whether the materials mail may carry an offer (offers/mail-offer.ts).
  activeSubscriberOfOrder.as('subscriber_id'),
] as const;

function purchaseForMail(trx: Transaction<Database>, purchaseId: string) {
  return trx
    .selectFrom('purchases')
    .innerJoin('courses', 'courses.id', 'purchases.course_id')
    .select(MAIL_PURCHASE)
    .where('purchases.id', '=', purchaseId)
    .executeTakeFirstOrThrow();
}

export type MailPurchase = Awaited<ReturnType<typeof purchaseForMail>>;

/** The materials e-mail of a completed purchase, queued in the transaction that completed it. */
export async function queueMaterialsMail(trx: Transaction<Database>, purchaseId: string): Promise<void> {
  const purchase = await purchaseForMail(trx, purchaseId);
  const receipt = purchase.receipt_number === null ? undefined : documentNumber('receipt', purchase.receipt_number);
  await queueMail(trx, await materialsMail(trx, purchase, receipt));
}

/**
 * The materials e-mail of an order, to render when it is sent. Its receipt is printed with the
 * number given: a paid order being fulfilled gets `RECEIPT_NUMBER_SLOT`, filled by the statement that
 * issues the number and queues this mail (numbering.ts issueReceipt).
 */
export async function materialsMail(
  trx: Transaction<Database>,
  purchase: MailPurchase,
  receiptNumber: string | undefined,
  /** Whether the order is a bundle's, when the caller knows: only a bundle's mail lists its courses. */
  known?: { bundle: boolean },
): Promise<MailRenderedWhenSent> {
  const language = asLanguage(purchase.language);
  const bundle = (known?.bundle ?? true) ? await bundleDownloads(purchase.id, trx) : [];
  const offer = await offerForMaterialsMail(trx, purchase, language);
  return mailToRender(trx, courseMaterials, {
    props: {
      name: purchase.full_name || purchase.email,
      courseTitle: purchase.title,
      downloadUrl: downloadLink(purchase.download_token!),
      bundleCourses: bundle.map((course) => ({ title: course.title, downloadUrl: downloadLink(course.downloadToken) })),
      // "Open My Courses" signs the buyer in: a one-use link minted when the mail is sent.
      libraryUrl: signInLinkUrl(LINK_TOKEN_SLOT, language),
      amount: purchase.amount_minor === 0 ? undefined : formatMoney(purchase.amount_minor, purchase.currency, language),
      date: formatDate(purchase.completed_at ?? new Date(), language),
      reference: orderReference(purchase.id),
      receipt: receiptNumber === undefined ? undefined : { number: receiptNumber, url: receiptLink(purchase.download_token!) },
      discount: purchase.discount_code
        ? { code: purchase.discount_code, amount: formatMoney(purchase.discount_minor, purchase.currency, language) }
        : undefined,
      documents: contractDocuments(purchase.contracts as OrderContracts | null, language),
      offer,
    },
    delivery: { to: purchase.email, language },
    link: { kind: 'sign_in', email: purchase.email },
  });
}

/** The distance-sales documents the buyer agreed to, as filled for their order, for their records. */
function contractDocuments(contracts: OrderContracts | null, language: ReturnType<typeof asLanguage>) {
  if (!contracts) return undefined;
  const t = getT(language);
  return [
    { title: t('checkout.preInformation'), markdown: contracts.preInformation.markdown },
    { title: t('checkout.distanceContract'), markdown: contracts.distanceContract.markdown },
  ];
}

/** The refund e-mail, in the buyer's language, queued in the transaction that records the refund. */
export async function queueRefundMail(trx: Transaction<Database>, purchaseId: string): Promise<void> {
  const purchase = await purchaseForMail(trx, purchaseId);
  // Free enrolments cost nothing to refund; an anonymised order (deleted account) has nobody to tell.
  if (purchase.amount_minor === 0 || purchase.email.endsWith('@deleted.invalid')) return;
  const language = asLanguage(purchase.language);
  const mail = await renderMail(
    refundNotice,
    {
      name: purchase.full_name || purchase.email,
      courseTitle: purchase.title,
      amount: formatMoney(purchase.amount_minor, purchase.currency, language),
      date: formatDate(new Date(), language),
      reference: orderReference(purchase.id),
      creditNote:
        purchase.credit_note_number === null
          ? undefined
          : {
              number: documentNumber('credit_note', purchase.credit_note_number),
              url: receiptLink(purchase.download_token!, 'credit-note'),
            },
    },
    { to: purchase.email, language },
    trx,
  );
  await queueMail(trx, mail);
}
