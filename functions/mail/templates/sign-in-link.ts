import { Button, h, Paragraph } from '../kit.ts';
import { defineTemplate } from '../template.ts';

/** Asked for on the login page: one button that signs the reader in. */
export interface SignInLinkProps {
  name: string;
  url: string;
}

export const signInLink = defineTemplate<SignInLinkProps>({
  kind: 'sign-in-link',
  subject: (_props, { t, shop }) => t('mail.signInSubject', { shop: shop.name }),
  preheader: (_props, { t }) => t('mail.signInPreheader'),
  reason: (_props, { t, shop }) => t('mail.reasonSignIn', { shop: shop.name }),
  body: (props, { t }) => [
    h(Paragraph, { key: 'greeting' }, t('mail.greeting', { name: props.name })),
    h(Paragraph, { key: 'intro' }, t('mail.signInIntro')),
    h(Button, { key: 'sign-in', url: props.url }, t('mail.signInButton')),
    h(Paragraph, { key: 'expiry', muted: true }, t('mail.signInExpiry')),
    h(Paragraph, { key: 'ignore', muted: true }, t('mail.signInIgnore')),
  ],
  sample: (language) => ({
    name: language === 'tr' ? 'Ayşe Yılmaz' : 'Sam Carter',
    url: 'https://shop.example/api/auth/magic-link/verify?token=for-preview-only',
  }),
});
