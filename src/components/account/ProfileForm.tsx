import { I18nIsland, useTranslation } from '../islands/I18nIsland.tsx';
import { messageScopes, type IslandMessages } from '../../i18n/translate.ts';
import { ACCOUNT_ANSWERS } from '../../i18n/account-answers.ts';
import { SelectField, TextField } from '../forms/fields.tsx';
import { Form, FormFailure, SubmitButton, useForm } from '../forms/use-form.tsx';
import { updateProfile } from '../../lib/auth-client.ts';
import { showToast, showToastOnNextPage } from '../../stores/toasts.ts';
import { LANGUAGES, switchLanguage, type Language } from '../../i18n/languages.ts';
import type { PostedForm } from '../../lib/posted-form.ts';

interface Props {
  lang: Language;
  messages: IslandMessages;
  email: string;
  fullName: string;
  language: Language;
  /** "Saved" in each interface language: the toast after a language change speaks the new one. */
  savedIn: Record<Language, string>;
  /** The form as the page answered it, posted before this island hydrated. */
  posted?: PostedForm | undefined;
}

/** The form's schema, loaded when first used (src/components/forms/use-form.tsx). */
const schemas = () => import('../../lib/auth.schema.ts');

/** The strings this island shows (sent by its page with `islandMessages`). */
export const MESSAGES = messageScopes(...ACCOUNT_ANSWERS, 'auth.', 'language.', 'settings.', 'twoFactor.');

export default function ProfileFormIsland(props: Props) {
  return (
    <I18nIsland messages={props.messages}>
      <ProfileForm {...props} />
    </I18nIsland>
  );
}

function ProfileForm({ lang, email, fullName, language, savedIn, posted }: Props) {
  const { t } = useTranslation();
  const form = useForm(
    () => schemas().then((s) => s.ProfileSchema),
    { fullName, language },
    { idPrefix: 'profile', posted, onFailure: (message) => showToast('error', t(message)) },
  );

  const submit = form.handleSubmit(async (data) => {
    const result = await updateProfile(data.fullName, data.language);
    if (!result.ok) return { ...result, message: 'settings.profileFailed' };
    if (data.language === lang) return showToast('success', t('settings.profileSaved'));
    // The interface follows the chosen language.
    showToastOnNextPage('success', savedIn[data.language]);
    location.assign(switchLanguage(location.pathname, data.language));
    return 'navigating';
  });

  return (
    <Form name={form.name} onSubmit={submit} className="space-y-4">
      <div>
        <label htmlFor="profile-email" className="block text-sm font-semibold">
          {t('auth.email')}
        </label>
        <input
          id="profile-email"
          type="email"
          value={email}
          readOnly
          aria-describedby="profile-email-hint"
          className="mt-1 w-full rounded-lg border border-gray-200 bg-gray-50 px-3 py-2 text-gray-600"
        />
        <p id="profile-email-hint" className="mt-1 text-xs text-gray-500">
          {t('settings.emailReadOnly')}
        </p>
      </div>
      <TextField label={t('auth.fullName')} autoComplete="name" {...form.bind('fullName')} />
      <SelectField label={t('settings.language')} {...form.bind('language')}>
        {LANGUAGES.map((code) => (
          <option key={code} value={code}>
            {t(`language.${code}`)}
          </option>
        ))}
      </SelectField>
      <FormFailure message={form.failure} />
      <SubmitButton busy={form.busy} label={t('settings.saveProfile')} busyLabel={t('settings.saving')} />
    </Form>
  );
}
