import { Button, h, Paragraph } from '../kit.ts';
import { defineTemplate } from '../template.ts';

export interface PasswordResetProps {
  name: string;
  url: string;
}

export const passwordReset = defineTemplate<PasswordResetProps>({
  kind: 'password-reset',
  subject: (_props, { t, shop }) => t('mail.resetSubject', { shop: shop.name }),
  preheader: (_props, { t }) => t('mail.resetPreheader'),
  reason: (_props, { t, shop }) => t('mail.reasonReset', { shop: shop.name }),
  body: (props, { t, shop }) => [
    h(Paragraph, { key: 'greeting' }, t('mail.greeting', { name: props.name })),
    h(Paragraph, { key: 'intro' }, t('mail.resetIntro', { shop: shop.name })),
    h(Button, { key: 'reset', url: props.url }, t('mail.resetButton')),
    h(Paragraph, { key: 'expiry', muted: true }, t('mail.resetExpiry')),
    h(Paragraph, { key: 'ignore', muted: true }, t('mail.resetIgnore')),
  ],
  sample: (language) => ({
    name: language === 'tr' ? 'Ayşe Yılmaz' : 'Sam Carter',
    url: `https://shop.example/${language}/reset-password?token=for-preview-only`,
  }),
});
