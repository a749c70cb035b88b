import { getT } from '../../../src/i18n/i18n.ts';
import { writtenTemplate } from './written.ts';

/** The automatic review request, some days after a purchase: to buyers who confirmed marketing mail only. */
export const reviewRequest = writtenTemplate('review-request', {
  button: 'mail.reviewRequestButton',
  sample: (language) => {
    const t = getT(language);
    const course = language === 'tr' ? 'İlk Aylık Bütçenizi Yapın' : 'Your First Monthly Budget';
    return {
      subject: t('mail.reviewRequestSubject', { course }),
      markdown: t('mail.reviewRequestBody', { course }),
      buttonUrl: `https://shop.example/${language}/courses/sample#reviews`,
    };
  },
});
