import type { Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';
import { siteUrl } from '../env.ts';
import { queueMail } from '../mail/outbox.ts';
import { renderMail } from '../mail/templates.ts';
import { getT } from '../../src/i18n/i18n.ts';
import { asLanguage } from '../../src/i18n/languages.ts';
import { formatMoney } from '../../src/lib/money.ts';
import { formatDate } from '../../src/lib/dates.ts';

export function downloadLink(token: string): string {
  return `${siteUrl()}/api/downloads/${token}`;
}

/** The materials e-mail of a completed purchase, queued in the transaction that completed it. */
export async function queueMaterialsMail(trx: Transaction<Database>, purchaseId: string): Promise<void> {
  const purchase = await trx
    .selectFrom('purchases')
    .innerJoin('courses', 'courses.id', 'purchases.course_id')
    .select([
      'purchases.id',
      'purchases.email',
      'purchases.full_name',
      'purchases.language',
      'purchases.amount_minor',
      'purchases.currency',
      'purchases.download_token',
      'purchases.completed_at',
      'courses.title',
    ])
    .where('purchases.id', '=', purchaseId)
    .executeTakeFirstOrThrow();
  const lang = asLanguage(purchase.language);
  const t = getT(lang);
  const amount = purchase.amount_minor === 0 ? t('course.free') : formatMoney(purchase.amount_minor, purchase.currency, lang);
  await queueMail(
    trx,
    renderMail('course-materials', purchase.email, lang, t('mail.materialsSubject', { title: purchase.title }), [
      { text: t('mail.greeting', { name: purchase.full_name || purchase.email }) },
      { text: t('mail.materialsIntro', { title: purchase.title }) },
      { text: '', link: { label: t('mail.materialsDownload'), url: downloadLink(purchase.download_token!) } },
      { text: t('mail.materialsLinkNote') },
      { text: '', link: { label: t('mail.materialsDashboard'), url: `${siteUrl()}/${lang}/dashboard/courses` } },
      { text: t('mail.receiptTitle') },
      {
        text: t('mail.receiptLine', {
          title: purchase.title,
          amount,
          date: formatDate(purchase.completed_at ?? new Date(), lang),
          reference: purchase.id,
        }),
      },
      { text: purchase.amount_minor > 0 ? t('mail.refundPromise') : t('mail.freeNote') },
    ]),
  );
}
