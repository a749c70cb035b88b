import { getT } from '../../../src/i18n/i18n.ts';
import { writtenTemplate } from './written.ts';

/** The automatic reminder of a checkout left unfinished: once, to confirmed subscribers only, within 24 hours. */
export const checkoutReminder = writtenTemplate('checkout-reminder', {
  button: 'mail.checkoutReminderButton',
  sample: (language) => {
    const t = getT(language);
    const course = language === 'tr' ? 'İlk Aylık Bütçenizi Yapın' : 'Your First Monthly Budget';
    return {
      subject: t('mail.checkoutReminderSubject', { course }),
      markdown: t('mail.checkoutReminderBody', { course }),
      buttonUrl: `https://shop.example/${language}/checkout/sample`,
    };
  },
});
