import { Button, h, Paragraph, TextLink } from '../kit.ts';
import { defineTemplate } from '../template.ts';

/**
 * Sent once to a buyer the seller brought over from another platform (Admin → Import, when asked):
 * where the courses they bought there are now, and how to open them. About their purchases only, so
 * transactional: it carries no marketing.
 */
export interface ImportedCoursesProps {
  name: string;
  /** The platform they bought on (Gumroad, Payhip, Lemon Squeezy). */
  platform: string;
  courses: string[];
  /** Signs them in and opens My Courses: a one-use link minted when the mail is sent. */
  libraryUrl: string;
  /** The sign-in page, for when that link has expired. */
  loginUrl: string;
}

export const importedCourses = defineTemplate<ImportedCoursesProps>({
  kind: 'imported-courses',
  subject: (_props, { t, shop }) => t('mail.importedSubject', { shop: shop.name }),
  preheader: (props, { t }) => t('mail.importedPreheader', { count: props.courses.length }),
  reason: (props, { t, shop }) => t('mail.reasonImported', { platform: props.platform, shop: shop.name }),
  body: (props, { t, shop }) => [
    h(Paragraph, { key: 'greeting' }, props.name ? t('mail.greeting', { name: props.name }) : t('mail.greetingNoName')),
    h(Paragraph, { key: 'intro' }, t('mail.importedIntro', { platform: props.platform, shop: shop.name })),
    ...props.courses.map((title) => h(Paragraph, { key: `course-${title}` }, `• ${title}`)),
    h(Button, { key: 'library', url: props.libraryUrl }, t('mail.importedButton')),
    h(
      Paragraph,
      { key: 'later', muted: true },
      t('mail.importedLater'),
      ' ',
      h(TextLink, { url: props.loginUrl }, props.loginUrl),
    ),
  ],
  sample: (language) => ({
    name: language === 'tr' ? 'Ayşe Yılmaz' : 'Sam Carter',
    platform: 'Gumroad',
    courses: [language === 'tr' ? 'İlk Aylık Bütçenizi Yapın' : 'Your First Monthly Budget'],
    libraryUrl: 'https://shop.example/api/auth/magic-link/verify?token=for-preview-only',
    loginUrl: `https://shop.example/${language}/login`,
  }),
});
