import { Button, h, Paragraph } from '../kit.ts';
import { defineTemplate } from '../template.ts';

/** The first marketing mail: sent when a subscription is confirmed, with one-click unsubscribe like every marketing mail. */
export interface SubscriptionWelcomeProps {
  coursesUrl: string;
}

export const subscriptionWelcome = defineTemplate<SubscriptionWelcomeProps>({
  kind: 'subscription-welcome',
  optional: true,
  unsubscribeLabel: ({ t }) => t('mail.subscriberPreferences'),
  subject: (_props, { t, shop }) => t('mail.welcomeSubject', { shop: shop.name }),
  preheader: (_props, { t }) => t('mail.welcomePreheader'),
  reason: (_props, { t, shop }) => t('mail.reasonSubscriber', { shop: shop.name }),
  body: (props, { t }) => [
    h(Paragraph, { key: 'intro' }, t('mail.welcomeIntro')),
    h(Button, { key: 'courses', url: props.coursesUrl }, t('mail.welcomeButton')),
    h(Paragraph, { key: 'leave', muted: true }, t('mail.welcomeLeave')),
  ],
  sample: (language) => ({ coursesUrl: `https://shop.example/${language}/courses` }),
});
