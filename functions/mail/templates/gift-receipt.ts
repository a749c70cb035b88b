import { h, Paragraph, TextLink } from '../kit.ts';
import { orderReceipt } from './order-receipt.ts';
import { defineTemplate } from '../template.ts';

/** A gift's buyer after paying: the receipt, and when and to whom the gift goes (never the course itself). */
export interface GiftReceiptProps {
  name: string;
  courseTitle: string;
  recipient: string;
  /** The delivery day, formatted. */
  deliverOn: string;
  /** Formatted in the course's own currency; undefined for a free course. */
  amount: string | undefined;
  date: string;
  reference: string;
  receipt?: { number: string; url: string } | undefined;
  discount?: { code: string; amount: string } | undefined;
  /** The buyer's dashboard, where gifts are listed and can be sent again. */
  giftsUrl: string;
}

export const giftReceipt = defineTemplate<GiftReceiptProps>({
  kind: 'gift-receipt',
  subject: (props, { t }) => t('mail.giftReceiptSubject', { title: props.courseTitle }),
  preheader: (props, { t }) => t('mail.giftReceiptPreheader', { recipient: props.recipient, date: props.deliverOn }),
  reason: (props, { t, shop }) => t('mail.reasonGiftBought', { title: props.courseTitle, shop: shop.name }),
  body: (props, { t }) => [
    h(Paragraph, { key: 'greeting' }, t('mail.greeting', { name: props.name })),
    h(
      Paragraph,
      { key: 'intro' },
      t('mail.giftReceiptIntro', { title: props.courseTitle, recipient: props.recipient, date: props.deliverOn }),
    ),
    ...orderReceipt(props, t),
    h(Paragraph, { key: 'gifts' }, h(TextLink, { url: props.giftsUrl }, t('mail.giftReceiptManage'))),
  ],
  sample: (language) => ({
    name: language === 'tr' ? 'Ayşe Yılmaz' : 'Sam Carter',
    courseTitle: language === 'tr' ? 'İlk Aylık Bütçenizi Yapın' : 'Your First Monthly Budget',
    recipient: 'friend@example.com',
    deliverOn: language === 'tr' ? '1 Aralık 2026' : 'December 1, 2026',
    amount: language === 'tr' ? '₺149,00' : '$9.00',
    date: language === 'tr' ? '24 Kasım 2026' : 'November 24, 2026',
    reference: 'MC-7F3A9C21',
    receipt: { number: 'R-000042', url: 'https://shop.example/api/receipts/Zm9yLXByZXZpZXctb25seS0xMjM0NTY3ODkw' },
    discount: undefined,
    giftsUrl: `https://shop.example/${language}/dashboard#gifts`,
  }),
});
