import { Button, h, Paragraph, ReceiptTable } from '../kit.ts';
import { defineTemplate } from '../template.ts';

/** After a purchase or a free enrolment: the download, the way back, and the receipt. */
export interface CourseMaterialsProps {
  name: string;
  courseTitle: string;
  downloadUrl: string;
  libraryUrl: string;
  /** Formatted in the course's own currency; undefined for a free course. */
  amount: string | undefined;
  date: string;
  reference: string;
}

export const courseMaterials = defineTemplate<CourseMaterialsProps>({
  kind: 'course-materials',
  subject: (props, { t }) => t('mail.materialsSubject', { title: props.courseTitle }),
  preheader: (props, { t }) => t('mail.materialsPreheader', { title: props.courseTitle }),
  reason: (props, { t, shop }) => t('mail.reasonPurchase', { title: props.courseTitle, shop: shop.name }),
  body: (props, { t }) => [
    h(Paragraph, { key: 'greeting' }, t('mail.greeting', { name: props.name })),
    h(Paragraph, { key: 'intro' }, t('mail.materialsIntro', { title: props.courseTitle })),
    h(Button, { key: 'download', url: props.downloadUrl }, t('mail.materialsDownload')),
    h(Paragraph, { key: 'note', muted: true }, t('mail.materialsLinkNote')),
    h(Button, { key: 'library', url: props.libraryUrl }, t('mail.materialsDashboard')),
    h(ReceiptTable, {
      key: 'receipt',
      title: t('mail.receiptTitle'),
      rows: [
        { label: t('mail.receiptReference'), value: props.reference },
        { label: t('mail.receiptDate'), value: props.date },
        { label: t('mail.receiptCourse'), value: props.courseTitle },
        { label: t('mail.receiptTotal'), value: props.amount ?? t('course.free') },
      ],
    }),
    h(Paragraph, { key: 'promise' }, props.amount ? t('mail.refundPromise') : t('mail.freeNote')),
  ],
  sample: (language) => ({
    name: language === 'tr' ? 'Ayşe Yılmaz' : 'Sam Carter',
    courseTitle: language === 'tr' ? 'İlk Aylık Bütçenizi Yapın' : 'Your First Monthly Budget',
    downloadUrl: 'https://shop.example/api/downloads/Zm9yLXByZXZpZXctb25seS0xMjM0NTY3ODkw',
    libraryUrl: `https://shop.example/${language}/dashboard/courses`,
    amount: language === 'tr' ? '₺149,00' : '$9.00',
    date: language === 'tr' ? '24 Kasım 2026' : 'November 24, 2026',
    reference: 'MC-7F3A9C21',
  }),
});
