import { Button, h, Paragraph } from '../kit.ts';
import { defineTemplate } from '../template.ts';

/** A course's PDF was replaced with a new version: its buyers may download it again. Optional mail. */
export interface CourseUpdateProps {
  name: string;
  courseTitle: string;
  updatedOn: string;
  libraryUrl: string;
}

export const courseUpdate = defineTemplate<CourseUpdateProps>({
  kind: 'course-update',
  optional: true,
  subject: (props, { t }) => t('mail.updateSubject', { title: props.courseTitle }),
  preheader: (props, { t }) => t('mail.updatePreheader', { title: props.courseTitle }),
  reason: (props, { t, shop }) => t('mail.reasonUpdate', { title: props.courseTitle, shop: shop.name }),
  body: (props, { t }) => [
    h(Paragraph, { key: 'greeting' }, t('mail.greeting', { name: props.name })),
    h(Paragraph, { key: 'intro' }, t('mail.updateIntro', { title: props.courseTitle, date: props.updatedOn })),
    h(Button, { key: 'library', url: props.libraryUrl }, t('mail.updateButton')),
  ],
  sample: (language) => ({
    name: language === 'tr' ? 'Ayşe Yılmaz' : 'Sam Carter',
    courseTitle: language === 'tr' ? 'İlk Aylık Bütçenizi Yapın' : 'Your First Monthly Budget',
    updatedOn: language === 'tr' ? '24 Kasım 2026' : 'November 24, 2026',
    libraryUrl: `https://shop.example/${language}/dashboard/courses`,
  }),
});
