import { Button, h, LegalDocument, Paragraph, Subheading, TextLink } from '../kit.ts';
import { orderReceipt } from './order-receipt.ts';
import { defineTemplate, type MailContext } from '../template.ts';
import { offerWords, type MailOffer } from '../../offers/offer-words.ts';

/** After a purchase or a free enrolment: the download, the way back, and the receipt. */
export interface CourseMaterialsProps {
  name: string;
  courseTitle: string;
  downloadUrl: string;
  /** A bundle's order: each of its courses with the buyer's own download link (in place of downloadUrl). */
  bundleCourses?: { title: string; downloadUrl: string }[] | undefined;
  libraryUrl: string;
  /** Formatted in the course's own currency; undefined for a free course. */
  amount: string | undefined;
  date: string;
  reference: string;
  /** A paid order's numbered receipt: its number and the PDF's link. */
  receipt?: { number: string; url: string } | undefined;
  /** The discount a code gave, formatted, with the code. */
  discount?: { code: string; amount: string } | undefined;
  /** Documents the buyer agreed to, sent for their records (Turkish paid orders). */
  documents?: { title: string; markdown: string }[] | undefined;
  /** The next course, only for a buyer who confirmed their consent to marketing mail (functions/offers/mail-offer.ts). */
  offer?: MailOffer | undefined;
}

export const courseMaterials = defineTemplate<CourseMaterialsProps>({
  kind: 'course-materials',
  subject: (props, { t }) => t('mail.materialsSubject', { title: props.courseTitle }),
  preheader: (props, { t }) => t('mail.materialsPreheader', { title: props.courseTitle }),
  reason: (props, { t, shop }) => t('mail.reasonPurchase', { title: props.courseTitle, shop: shop.name }),
  body: (props, { t, shop }) => [
    h(Paragraph, { key: 'greeting' }, t('mail.greeting', { name: props.name })),
    ...(props.bundleCourses?.length
      ? [
          h(Paragraph, { key: 'intro' }, t('mail.materialsBundleIntro', { title: props.courseTitle })),
          ...props.bundleCourses.map((course) =>
            h(
              Button,
              { key: `download-${course.downloadUrl}`, url: course.downloadUrl },
              t('mail.materialsDownloadOne', { title: course.title }),
            ),
          ),
        ]
      : [
          h(Paragraph, { key: 'intro' }, t('mail.materialsIntro', { title: props.courseTitle })),
          h(Button, { key: 'download', url: props.downloadUrl }, t('mail.materialsDownload')),
        ]),
    h(Paragraph, { key: 'note', muted: true }, t('mail.materialsLinkNote')),
    h(Button, { key: 'library', url: props.libraryUrl }, t('mail.materialsDashboard')),
    ...orderReceipt(props, t),
    props.amount
      ? shop.moneyBackDays > 0 && h(Paragraph, { key: 'promise' }, t('mail.refundPromise', { days: shop.moneyBackDays }))
      : h(Paragraph, { key: 'promise' }, t('mail.freeNote')),
    ...nextCourse(props.offer, t),
    ...(props.documents ?? []).map((document) => h(LegalDocument, { key: document.title, ...document })),
  ],
  sample: (language) => ({
    name: language === 'tr' ? 'Ayşe Yılmaz' : 'Sam Carter',
    courseTitle: language === 'tr' ? 'İlk Aylık Bütçenizi Yapın' : 'Your First Monthly Budget',
    downloadUrl: 'https://shop.example/api/downloads/Zm9yLXByZXZpZXctb25seS0xMjM0NTY3ODkw',
    libraryUrl: `https://shop.example/${language}/dashboard/courses`,
    amount: language === 'tr' ? '₺149,00' : '$9.00',
    date: language === 'tr' ? '24 Kasım 2026' : 'November 24, 2026',
    reference: 'MC-7F3A9C21',
    receipt: { number: 'R-000042', url: 'https://shop.example/api/receipts/Zm9yLXByZXZpZXctb25seS0xMjM0NTY3ODkw' },
    discount: { code: 'WELCOME10', amount: language === 'tr' ? '₺16,56' : '$1.00' },
    offer: {
      ...offerWords(
        {
          course: { id: '', title: 'Debt-Free Plan', coverImageUrl: null, priceMinor: 999, currency: 'USD' },
          discount: {
            code: 'NEXT-0',
            totalMinor: 799,
            endsAt: new Date('2026-11-26T12:00Z'),
            before: { priceMinor: 999, percent: 20 },
          },
        },
        language,
      ),
      url: `https://shop.example/${language}/checkout/00000000-0000-4000-8000-000000000000?code=NEXT-0`,
      preferencesUrl: `https://shop.example/${language}/subscription?token=for-preview-only`,
    },
    documents:
      language === 'tr'
        ? [
            {
              title: 'Ön Bilgilendirme Formu',
              markdown: '## 1. Satıcı\n\n- **Unvan:** Örnek Eğitim Ltd. Şti.\n- **E-posta:** destek@shop.example',
            },
            { title: 'Mesafeli Satış Sözleşmesi', markdown: '## Madde 1. Taraflar\n\n**Satıcı:** Örnek Eğitim Ltd. Şti.' },
          ]
        : undefined,
  }),
});

/** The next course after the receipt: what it costs now, until when, and why this buyer gets it. */
function nextCourse(offer: MailOffer | undefined, t: MailContext['t']) {
  if (!offer) return [];
  const price = [offer.price, offer.reduction, offer.before].filter(Boolean).join(' · ');
  return [
    h(Subheading, { key: 'offer-heading' }, t('offer.heading')),
    h(Paragraph, { key: 'offer-course' }, `${offer.title}: ${price}`),
    offer.until && h(Paragraph, { key: 'offer-until', muted: true }, offer.until),
    h(Button, { key: 'offer-action', url: offer.url }, offer.action),
    h(
      Paragraph,
      { key: 'offer-why', muted: true },
      `${t('offer.mailWhy')} `,
      h(TextLink, { url: offer.preferencesUrl }, t('offer.mailPreferences')),
    ),
  ];
}
