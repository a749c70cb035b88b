import { Button, h, Paragraph } from '../kit.ts';
import { defineTemplate } from '../template.ts';

/** Double opt-in: the one mail a sign-up form sends. Nothing marketing in it; the address joins only if the link is used. */
export interface SubscriptionConfirmProps {
  url: string;
  /** How long the link works, in hours. */
  hours: number;
}

export const subscriptionConfirm = defineTemplate<SubscriptionConfirmProps>({
  kind: 'subscription-confirm',
  subject: (_props, { t, shop }) => t('mail.subscribeSubject', { shop: shop.name }),
  preheader: (_props, { t }) => t('mail.subscribePreheader'),
  reason: (_props, { t, shop }) => t('mail.reasonSubscribe', { shop: shop.name }),
  body: (props, { t, shop }) => [
    h(Paragraph, { key: 'intro' }, t('mail.subscribeIntro', { shop: shop.name })),
    h(Button, { key: 'confirm', url: props.url }, t('mail.subscribeButton')),
    h(Paragraph, { key: 'expiry', muted: true }, t('mail.subscribeExpiry', { count: props.hours })),
    h(Paragraph, { key: 'ignore', muted: true }, t('mail.subscribeIgnore')),
  ],
  sample: (language) => ({ url: `https://shop.example/${language}/subscribe/confirm?token=for-preview-only`, hours: 48 }),
});
