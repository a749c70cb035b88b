import { useTranslation } from 'react-i18next';
import { I18nIsland } from '../islands/I18nIsland.tsx';
import { SelectField, TextField } from '../forms/fields.tsx';
import { FormFailure, useForm, SubmitButton } from '../forms/use-form.tsx';
import { ProfileSchema } from '../../lib/auth.schema.ts';
import { updateProfile } from '../../lib/auth-client.ts';
import { showToast, showToastOnNextPage } from '../../stores/toasts.ts';
import { getT } from '../../i18n/i18n.ts';
import { LANGUAGES, switchLanguage, type Language } from '../../i18n/languages.ts';

interface Props {
  lang: Language;
  email: string;
  fullName: string;
  language: Language;
}

export default function ProfileFormIsland(props: Props) {
  return (
    <I18nIsland lang={props.lang}>
      <ProfileForm {...props} />
    </I18nIsland>
  );
}

function ProfileForm({ lang, email, fullName, language }: Props) {
  const { t } = useTranslation();
  const form = useForm(
    ProfileSchema,
    { fullName, language },
    { idPrefix: 'profile', onFailure: (message) => showToast('error', t(message)) },
  );

  const submit = form.handleSubmit(async (data) => {
    const result = await updateProfile(data.fullName, data.language);
    if (!result.ok) return { ...result, message: 'settings.profileFailed' };
    if (data.language === lang) return showToast('success', t('settings.profileSaved'));
    // The interface follows the chosen language.
    showToastOnNextPage('success', getT(data.language)('settings.profileSaved'));
    location.assign(switchLanguage(location.pathname, data.language));
    return 'navigating';
  });

  return (
    <form onSubmit={submit} noValidate className="space-y-4">
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
    </form>
  );
}
