import { useState } from 'react';
import { I18nIsland, useTranslation } from '../islands/I18nIsland.tsx';
import { messageScopes } from '../../i18n/translate.ts';
import { ACCOUNT_ANSWERS } from '../../i18n/account-answers.ts';
import { TextField } from '../forms/fields.tsx';
import { Form, FormFailure, SubmitButton, useForm } from '../forms/use-form.tsx';
import { verifyBackupCode, verifyTotp } from '../../lib/auth-client.ts';
import { safeNextPath } from '../../lib/next-path.ts';
import { localizedPath } from '../../i18n/languages.ts';
import { showToastOnNextPage } from '../../stores/toasts.ts';
import type { FormIslandProps } from '../../lib/posted-form.ts';

/** The form's schema, loaded when first used (src/components/forms/use-form.tsx). */
const schemas = () => import('../../lib/auth.schema.ts');

/** The strings this island shows (sent by its page with `islandMessages`). */
export const MESSAGES = messageScopes(...ACCOUNT_ANSWERS, 'auth.welcomeBack', 'twoFactor.');

interface Props extends FormIslandProps {
  /**
   * This page's address asking for each way in (`?code=backup`): the switch between them is a link,
   * so it works before the script does.
   */
  ways: { authenticator: string; backup: string };
  /** The page was opened asking for a backup code. */
  backupAsked: boolean;
}

export default function TwoFactorChallengeIsland(props: Props) {
  return (
    <I18nIsland messages={props.messages}>
      <TwoFactorChallenge {...props} />
    </I18nIsland>
  );
}

function TwoFactorChallenge({ lang, posted, ways, backupAsked }: Props) {
  const { t } = useTranslation();
  const totp = useForm(() => schemas().then((s) => s.TotpCodeSchema), { code: '' }, { idPrefix: 'two-factor-code', posted });
  const recovery = useForm(
    () => schemas().then((s) => s.BackupCodeSchema),
    { code: '' },
    { idPrefix: 'two-factor-backup', posted },
  );
  const [backup, setBackup] = useState(posted ? posted.form === recovery.name : backupAsked);
  const form = backup ? recovery : totp;

  const submit = form.handleSubmit(async (data) => {
    const result = backup ? await verifyBackupCode(data.code) : await verifyTotp(data.code);
    if (!result.ok)
      return result.message === 'twoFactor.challengeExpired' ? result : { ...result, fields: { code: result.message } };
    const fallback = localizedPath(lang, '/dashboard');
    showToastOnNextPage('success', t('auth.welcomeBack'));
    location.assign(safeNextPath(new URLSearchParams(location.search).get('next'), fallback));
    return 'navigating';
  });

  return (
    <div className="space-y-4">
      <Form name={form.name} onSubmit={submit} className="space-y-4">
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
      </Form>
      <a
        href={backup ? ways.authenticator : ways.backup}
        onClick={(event) => {
          event.preventDefault();
          setBackup((shown) => !shown);
        }}
        className="inline-block text-sm font-medium text-brand-700 underline"
      >
        {backup ? t('twoFactor.useAuthenticator') : t('twoFactor.useBackupCode')}
      </a>
    </div>
  );
}
