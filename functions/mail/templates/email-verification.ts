import { Button, h, Paragraph } from '../kit.ts';
import { defineTemplate } from '../template.ts';

/** After sign-up, or to a new address the reader wants on their account. */
export interface EmailVerificationProps {
  name: string;
  url: string;
}

export const emailVerification = defineTemplate<EmailVerificationProps>({
  kind: 'email-verification',
  subject: (_props, { t, shop }) => t('mail.verifySubject', { shop: shop.name }),
  preheader: (_props, { t }) => t('mail.verifyPreheader'),
  reason: (_props, { t, shop }) => t('mail.reasonVerify', { shop: shop.name }),
  body: (props, { t }) => [
    h(Paragraph, { key: 'greeting' }, t('mail.greeting', { name: props.name })),
    h(Paragraph, { key: 'intro' }, t('mail.verifyIntro')),
    h(Button, { key: 'verify', url: props.url }, t('mail.verifyButton')),
    h(Paragraph, { key: 'expiry', muted: true }, t('mail.verifyExpiry')),
    h(Paragraph, { key: 'ignore', muted: true }, t('mail.verifyIgnore')),
  ],
  sample: (language) => ({
    name: language === 'tr' ? 'Ayşe Yılmaz' : 'Sam Carter',
    url: 'https://shop.example/api/auth/verify-email?token=for-preview-only',
  }),
});
