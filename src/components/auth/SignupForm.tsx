import { useState } from 'react';
import { I18nIsland, useTranslation } from '../islands/I18nIsland.tsx';
import { messageScopes } from '../../i18n/translate.ts';
import { ACCOUNT_ANSWERS } from '../../i18n/account-answers.ts';
import { PasswordField, TextField } from '../forms/fields.tsx';
import { Form, FormFailure, SubmitButton, useForm } from '../forms/use-form.tsx';
import { isSignedIn, signUp } from '../../lib/auth-client.ts';
import { showToastOnNextPage } from '../../stores/toasts.ts';
import { localizedPath, type Language } from '../../i18n/languages.ts';
import type { FormIslandProps, PostedForm } from '../../lib/posted-form.ts';

/** The form's schema, loaded when first used (src/components/forms/use-form.tsx). */
const schemas = () => import('../../lib/auth.schema.ts');

/** The strings this island shows (sent by its page with `islandMessages`). */
export const MESSAGES = messageScopes(...ACCOUNT_ANSWERS, 'auth.');

export default function SignupFormIsland({ lang, messages, posted }: FormIslandProps) {
  return (
    <I18nIsland messages={messages}>
      <SignupForm lang={lang} posted={posted} />
    </I18nIsland>
  );
}

function SignupForm({ lang, posted }: { lang: Language; posted: PostedForm | undefined }) {
  const { t } = useTranslation();
  const form = useForm(
    () => schemas().then((s) => s.SignupSchema),
    { fullName: '', email: '', password: '', confirmPassword: '' },
    { idPrefix: 'signup', posted },
  );

  const [sentTo, setSentTo] = useState<string | null>(
    posted?.form === form.name && posted.done ? (posted.values.email ?? null) : null,
  );

  const submit = form.handleSubmit(async (data) => {
    const result = await signUp(data.fullName, data.email, data.password, lang);
    if (!result.ok) return result;
    // The answer is the same for an address that already has an account; only a new account is signed in.
    if (!(await isSignedIn())) {
      setSentTo(data.email);
      return result;
    }
    showToastOnNextPage('success', t('auth.signupSuccess'));
    location.assign(localizedPath(lang, '/dashboard'));
    return 'navigating';
  });

  if (sentTo) {
    return (
      <div className="space-y-4 text-center" role="status">
        <h2 className="text-xl font-bold">{t('auth.checkEmailTitle')}</h2>
        <p className="text-gray-700">{t('auth.signupCheckEmail', { email: sentTo })}</p>
        <p className="text-sm text-gray-600">{t('auth.spamHint')}</p>
        <a
          href={localizedPath(lang, '/login')}
          className="block rounded-lg bg-brand-600 px-4 py-2 font-semibold text-white hover:bg-brand-700"
        >
          {t('auth.backToLogin')}
        </a>
      </div>
    );
  }

  return (
    <Form name={form.name} onSubmit={submit} className="space-y-4">
      <TextField label={t('auth.fullName')} autoComplete="name" {...form.bind('fullName')} />
      <TextField label={t('auth.email')} type="email" autoComplete="email" {...form.bind('email')} />
      <PasswordField label={t('auth.password')} autoComplete="new-password" {...form.bind('password')} />
      <PasswordField label={t('auth.confirmPassword')} autoComplete="new-password" {...form.bind('confirmPassword')} />
      <FormFailure message={form.failure} />
      <SubmitButton busy={form.busy} label={t('auth.signupButton')} busyLabel={t('auth.signingUp')} wide />
      <p className="text-center text-sm text-gray-600">
        {t('auth.agreeTerms')}{' '}
        <a href={localizedPath(lang, '/terms')} className="underline">
          {t('auth.terms')}
        </a>{' '}
        {t('auth.and')}{' '}
        <a href={localizedPath(lang, '/privacy')} className="underline">
          {t('auth.privacy')}
        </a>
        .
      </p>
      <p className="text-center text-sm text-gray-600">
        {t('auth.haveAccount')}{' '}
        <a href={localizedPath(lang, '/login')} className="font-medium text-brand-700 underline">
          {t('auth.loginLink')}
        </a>
      </p>
    </Form>
  );
}
