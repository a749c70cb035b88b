import { h, Paragraph, ReceiptTable, TextLink } from '../kit.ts';
import { defineTemplate } from '../template.ts';

/** The refund policy's promise: the buyer hears of their refund, in their language. */
export interface RefundNoticeProps {
  name: string;
  courseTitle: string;
  amount: string;
  date: string;
  reference: string;
  /** The credit note cancelling the order's receipt. */
  creditNote?: { number: string; url: string } | undefined;
}

export const refundNotice = defineTemplate<RefundNoticeProps>({
  kind: 'refund-notice',
  subject: (props, { t }) => t('mail.refundSubject', { title: props.courseTitle }),
  preheader: (props, { t }) => t('mail.refundPreheader', { amount: props.amount }),
  reason: (props, { t, shop }) => t('mail.reasonPurchase', { title: props.courseTitle, shop: shop.name }),
  body: (props, { t }) => [
    h(Paragraph, { key: 'greeting' }, t('mail.greeting', { name: props.name })),
    h(Paragraph, { key: 'intro' }, t('mail.refundIntro', { title: props.courseTitle, amount: props.amount })),
    h(ReceiptTable, {
      key: 'receipt',
      title: t('mail.refundTitle'),
      rows: [
        ...(props.creditNote ? [{ label: t('receipt.number'), value: props.creditNote.number }] : []),
        { label: t('mail.receiptReference'), value: props.reference },
        { label: t('mail.refundDate'), value: props.date },
        { label: t('mail.receiptCourse'), value: props.courseTitle },
        { label: t('mail.refundAmount'), value: props.amount },
      ],
    }),
    props.creditNote &&
      h(
        Paragraph,
        { key: 'credit-note' },
        h(TextLink, { url: props.creditNote.url }, t('mail.creditNotePdf', { number: props.creditNote.number })),
      ),
    h(Paragraph, { key: 'timing', muted: true }, t('mail.refundTiming')),
    h(Paragraph, { key: 'access' }, t('mail.refundAccess')),
  ],
  sample: (language) => ({
    name: language === 'tr' ? 'Ayşe Yılmaz' : 'Sam Carter',
    courseTitle: language === 'tr' ? 'İlk Aylık Bütçenizi Yapın' : 'Your First Monthly Budget',
    amount: language === 'tr' ? '₺149,00' : '$9.00',
    date: language === 'tr' ? '24 Kasım 2026' : 'November 24, 2026',
    reference: 'MC-7F3A9C21',
    creditNote: {
      number: 'CN-000007',
      url: 'https://shop.example/api/receipts/Zm9yLXByZXZpZXctb25seS0xMjM0NTY3ODkw?document=credit-note',
    },
  }),
});
