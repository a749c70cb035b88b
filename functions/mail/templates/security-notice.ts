import { Button, h, Paragraph, TextLink } from '../kit.ts';
import { defineTemplate } from '../template.ts';
import type { MessageKey } from '../../../src/i18n/i18n.ts';

/** What happened to the account (functions/account/security-notices.ts sends one mail per event). */
export type SecurityEvent =
  | 'new-sign-in'
  | 'password-changed'
  | 'two-factor-on'
  | 'two-factor-off'
  | 'two-factor-reset'
  | 'passkey-added'
  | 'email-changed'
  | 'sign-up-attempt';

export interface SecurityNoticeProps {
  name: string;
  event: SecurityEvent;
  /** The device (browser and system) it happened on, as Settings names it. */
  device: string;
  /** When, written for the reader (their language, UTC). */
  at: string;
  /** Settings, to see and end the signed-in devices. */
  settingsUrl: string;
  /** The "forgot password" page, to take the account back. */
  resetUrl: string;
  /** For a change of address: the new one (this mail goes to the old). */
  newEmail?: string;
  /** For a passkey added: the name its owner gave it. */
  passkeyName?: string;
}

const TEXTS: Record<SecurityEvent, { subject: MessageKey; intro: MessageKey; wasYou?: MessageKey; notYou: MessageKey }> = {
  'new-sign-in': {
    subject: 'mail.securityNewSignInSubject',
    intro: 'mail.securityNewSignInIntro',
    notYou: 'mail.securityNewSignInNotYou',
  },
  'password-changed': {
    subject: 'mail.securityPasswordSubject',
    intro: 'mail.securityPasswordIntro',
    notYou: 'mail.securityPasswordNotYou',
  },
  'two-factor-on': {
    subject: 'mail.securityTwoFactorOnSubject',
    intro: 'mail.securityTwoFactorOnIntro',
    notYou: 'mail.securityTwoFactorOnNotYou',
  },
  'two-factor-off': {
    subject: 'mail.securityTwoFactorOffSubject',
    intro: 'mail.securityTwoFactorOffIntro',
    notYou: 'mail.securityTwoFactorOffNotYou',
  },
  'two-factor-reset': {
    subject: 'mail.securityTwoFactorResetSubject',
    intro: 'mail.securityTwoFactorResetIntro',
    notYou: 'mail.securityTwoFactorResetNotYou',
  },
  'passkey-added': {
    subject: 'mail.securityPasskeySubject',
    intro: 'mail.securityPasskeyIntro',
    notYou: 'mail.securityPasskeyNotYou',
  },
  'email-changed': {
    subject: 'mail.securityEmailSubject',
    intro: 'mail.securityEmailIntro',
    notYou: 'mail.securityEmailNotYou',
  },
  // Sign-up answers the same whether or not the address has an account: only the owner learns it had.
  'sign-up-attempt': {
    subject: 'mail.securitySignUpSubject',
    intro: 'mail.securitySignUpIntro',
    wasYou: 'mail.securitySignUpWasYou',
    notYou: 'mail.securitySignUpNotYou',
  },
};

/** A change to the account's security, told to its owner with what to do if it was not them. */
export const securityNotice = defineTemplate<SecurityNoticeProps>({
  kind: 'security-notice',
  subject: (props, { t, shop }) => t(TEXTS[props.event].subject, { shop: shop.name }),
  preheader: (props, { t }) => t('mail.securityPreheader', { device: props.device, at: props.at }),
  reason: (_props, { t, shop }) => t('mail.reasonSecurity', { shop: shop.name }),
  body: (props, { t }) => {
    const texts = TEXTS[props.event];
    const values = { device: props.device, at: props.at, email: props.newEmail ?? '', passkey: props.passkeyName ?? '' };
    // The old address of a changed account cannot reset the password any more: it replies instead.
    const takeBack =
      props.event === 'email-changed'
        ? []
        : [
            h(Button, { key: 'reset', url: props.resetUrl }, t('mail.securityResetButton')),
            h(Paragraph, { key: 'devices', muted: true }, [
              t('mail.securityDevices'),
              ' ',
              h(TextLink, { key: 'settings', url: props.settingsUrl }, props.settingsUrl),
            ]),
          ];
    return [
      h(Paragraph, { key: 'greeting' }, t('mail.greeting', { name: props.name })),
      h(Paragraph, { key: 'intro' }, t(texts.intro, values)),
      h(Paragraph, { key: 'when', muted: true }, t('mail.securityWhen', values)),
      h(Paragraph, { key: 'you' }, t(texts.wasYou ?? 'mail.securityWasYou')),
      h(Paragraph, { key: 'not-you' }, t(texts.notYou, values)),
      ...takeBack,
    ];
  },
  sample: (language) => ({
    name: language === 'tr' ? 'Ayşe Yılmaz' : 'Sam Carter',
    event: 'new-sign-in',
    device: language === 'tr' ? 'Windows 10 üzerinde Chrome 131' : 'Chrome 131 on Windows 10',
    at: language === 'tr' ? '25 Kas 2026 09:14 UTC' : 'Nov 25, 2026, 9:14 AM UTC',
    settingsUrl: `https://shop.example/${language}/dashboard/settings`,
    resetUrl: `https://shop.example/${language}/forgot-password`,
  }),
});
