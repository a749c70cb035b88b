import { Button, h, Paragraph, Quote } from '../kit.ts';
import { defineTemplate } from '../template.ts';

/** A gift's recipient, on the day the buyer chose: who gives what, their message, and one sign-in button. */
export interface GiftProps {
  /** The buyer's name as they gave it at checkout. */
  from: string;
  courseTitle: string;
  message: string;
  /** A one-use sign-in link, minted as the mail leaves: it proves the address and opens My Courses. */
  signInUrl: string;
}

export const giftMail = defineTemplate<GiftProps>({
  kind: 'gift',
  subject: (props, { t }) => t('mail.giftSubject', { from: props.from, title: props.courseTitle }),
  preheader: (props, { t }) => t('mail.giftPreheader', { title: props.courseTitle }),
  reason: (props, { t, shop }) => t('mail.reasonGift', { from: props.from, shop: shop.name }),
  body: (props, { t }) => [
    h(Paragraph, { key: 'intro' }, t('mail.giftIntro', { from: props.from, title: props.courseTitle })),
    props.message && h(Quote, { key: 'message' }, props.message),
    h(Button, { key: 'open', url: props.signInUrl }, t('mail.giftOpen')),
    h(Paragraph, { key: 'how', muted: true }, t('mail.giftHow')),
    h(Paragraph, { key: 'privacy', muted: true }, t('mail.giftPrivacy')),
  ],
  sample: (language) => ({
    from: language === 'tr' ? 'Ayşe Yılmaz' : 'Sam Carter',
    courseTitle: language === 'tr' ? 'İlk Aylık Bütçenizi Yapın' : 'Your First Monthly Budget',
    message: language === 'tr' ? 'İyi ki doğdun! Keyifle oku.' : 'Happy birthday! Enjoy it.',
    signInUrl: 'https://shop.example/api/auth/magic-link/verify?token=for-preview-only',
  }),
});
