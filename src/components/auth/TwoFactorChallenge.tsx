import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { I18nIsland } from '../islands/I18nIsland.tsx';
import { TextField } from '../forms/fields.tsx';
import { FormFailure, SubmitButton, useForm } from '../forms/use-form.tsx';
import { BackupCodeSchema, TotpCodeSchema } from '../../lib/auth.schema.ts';
import { verifyBackupCode, verifyTotp } from '../../lib/auth-client.ts';
import { safeNextPath } from '../../lib/next-path.ts';
import { localizedPath, type Language } from '../../i18n/languages.ts';
import { showToastOnNextPage } from '../../stores/toasts.ts';

interface Props {
  lang: Language;
  /** A signed-in session stepping up to the admin area (else a password sign-in finishing). */
  signedIn: boolean;
}

export default function TwoFactorChallengeIsland(props: Props) {
  return (
    <I18nIsland lang={props.lang}>
      <TwoFactorChallenge {...props} />
    </I18nIsland>
  );
}

function TwoFactorChallenge({ lang, signedIn }: Props) {
  const { t } = useTranslation();
  const [backup, setBackup] = useState(false);
  const totp = useForm(TotpCodeSchema, { code: '' }, { idPrefix: 'two-factor-code' });
  const recovery = useForm(BackupCodeSchema, { code: '' }, { idPrefix: 'two-factor-backup' });
  const form = backup ? recovery : totp;

  const submit = form.handleSubmit(async (data) => {
    const result = backup ? await verifyBackupCode(data.code) : await verifyTotp(data.code);
    if (!result.ok)
      return result.message === 'twoFactor.challengeExpired' ? result : { ...result, fields: { code: result.message } };
    const fallback = localizedPath(lang, signedIn ? '/admin' : '/dashboard');
    if (!signedIn) showToastOnNextPage('success', t('auth.welcomeBack'));
    location.assign(safeNextPath(new URLSearchParams(location.search).get('next'), fallback));
    return 'navigating';
  });

  return (
    <div className="space-y-4">
      <form onSubmit={submit} noValidate className="space-y-4">
        {backup ? (
          <TextField
            key="backup"
            label={t('twoFactor.backupCode')}
            hint={t('twoFactor.backupCodeHint')}
            autoComplete="off"
            autoCapitalize="none"
            spellCheck={false}
            {...recovery.bind('code')}
          />
        ) : (
          <TextField
            key="totp"
            label={t('twoFactor.code')}
            hint={t('twoFactor.codeHint')}
            autoComplete="one-time-code"
            inputMode="numeric"
            {...totp.bind('code')}
          />
        )}
        <FormFailure message={form.failure} />
        {form.failure === 'twoFactor.challengeExpired' && (
          <p className="text-sm">
            <a href={localizedPath(lang, '/login')} className="font-medium text-brand-700 underline">
              {t('twoFactor.signInAgainLink')}
            </a>
          </p>
        )}
        <SubmitButton busy={form.busy} label={t('twoFactor.verify')} busyLabel={t('twoFactor.working')} wide />
      </form>
      <button type="button" onClick={() => setBackup((shown) => !shown)} className="text-sm font-medium text-brand-700 underline">
        {backup ? t('twoFactor.useAuthenticator') : t('twoFactor.useBackupCode')}
      </button>
    </div>
  );
}
