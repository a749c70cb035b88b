import { getT } from '../../../src/i18n/i18n.ts';
import { writtenTemplate } from './written.ts';

/**
 * The first marketing mail: sent when a subscription is confirmed (the automatic "welcome", which the
 * seller may edit or turn off in Admin → Mail), with one-click unsubscribe like every marketing mail.
 */
export const subscriptionWelcome = writtenTemplate('subscription-welcome', {
  button: 'mail.welcomeButton',
  closing: 'mail.welcomeLeave',
  sample: (language) => ({
    subject: getT(language)('mail.welcomeSubject', { shop: 'Micro Courses' }),
    markdown: getT(language)('mail.welcomeIntro'),
    buttonUrl: `https://shop.example/${language}/courses`,
  }),
});
