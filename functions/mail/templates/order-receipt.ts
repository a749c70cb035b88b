import { h, Paragraph, ReceiptTable, TextLink } from '../kit.ts';
import type { MailContext } from '../template.ts';

/** What an order's receipt shows in a mail (the course materials, a gift's receipt). */
export interface OrderReceiptProps {
  courseTitle: string;
  /** Formatted in the course's own currency; undefined for a free course. */
  amount: string | undefined;
  date: string;
  reference: string;
  /** A paid order's numbered receipt: its number and the PDF's link. */
  receipt?: { number: string; url: string } | undefined;
  /** The discount a code gave, formatted, with the code. */
  discount?: { code: string; amount: string } | undefined;
}

/** The receipt's lines and, for a numbered receipt, the link to its PDF. */
export function orderReceipt(props: OrderReceiptProps, t: MailContext['t']) {
  return [
    h(ReceiptTable, {
      key: 'receipt',
      title: t('mail.receiptTitle'),
      rows: [
        ...(props.receipt ? [{ label: t('receipt.number'), value: props.receipt.number }] : []),
        { label: t('mail.receiptReference'), value: props.reference },
        { label: t('mail.receiptDate'), value: props.date },
        { label: t('mail.receiptCourse'), value: props.courseTitle },
        ...(props.discount
          ? [{ label: t('receipt.discount', { code: props.discount.code }), value: `−${props.discount.amount}` }]
          : []),
        { label: t('mail.receiptTotal'), value: props.amount ?? t('course.free') },
      ],
    }),
    props.receipt &&
      h(
        Paragraph,
        { key: 'receipt-pdf' },
        h(TextLink, { url: props.receipt.url }, t('mail.receiptPdf', { number: props.receipt.number })),
      ),
  ];
}
