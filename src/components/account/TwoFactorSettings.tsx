import { useState, type SubmitEvent } from 'react';
import { I18nIsland, useTranslation } from '../islands/I18nIsland.tsx';
import { messageScopes, type IslandMessages } from '../../i18n/translate.ts';
import { ACCOUNT_ANSWERS } from '../../i18n/account-answers.ts';
import { Form, FormFailure, SubmitButton, useForm } from '../forms/use-form.tsx';
import { disableTwoFactor, enableTwoFactor, newBackupCodes } from '../../lib/auth-client.ts';
import type { Language } from '../../i18n/languages.ts';
import { showToastOnNextPage } from '../../stores/toasts.ts';
import { passwordFailure, ReauthField } from './reauth.tsx';
import type { PostedForm } from '../../lib/posted-form.ts';
import type { TwoFactorStep } from '../../lib/two-factor-step.ts';
import { BackupCodes, Enrol } from './two-factor/Enrolment.tsx';

interface Props {
  lang: Language;
  messages: IslandMessages;
  enabled: boolean;
  /** Re-authentication by password; an account without one needs a sign-in of the last minutes. */
  hasPassword: boolean;
  backupCodesLeft: number | null;
  /** An admin where two-factor is required (the admin area sends them here until it is on). */
  requiredForAdmin: boolean;
  /** One of Settings' forms as the page answered it, posted before this island hydrated. */
  posted?: PostedForm | undefined;
  /** Set-up's next step when the page answered its form (the QR code, or backup codes to keep). */
  step?: TwoFactorStep | undefined;
}

/** The form's schema, loaded when first used (src/components/forms/use-form.tsx). */
const schemas = () => import('../../lib/auth.schema.ts');

/** The strings this island shows (sent by its page with `islandMessages`). */
export const MESSAGES = messageScopes(...ACCOUNT_ANSWERS, 'twoFactor.');

export default function TwoFactorSettingsIsland(props: Props) {
  return (
    <I18nIsland messages={props.messages}>
      <TwoFactorSettings {...props} />
    </I18nIsland>
  );
}

function TwoFactorSettings({ lang, enabled, hasPassword, backupCodesLeft, requiredForAdmin, posted, step: answered }: Props) {
  const { t } = useTranslation();
  const [step, setStep] = useState<TwoFactorStep>(answered ?? { kind: 'idle' });

  if (step.kind === 'scan')
    return (
      <Enrol
        lang={lang}
        uri={step.uri}
        qr={step.qr}
        posted={posted}
        onConfirmed={() => setStep({ kind: 'codes', codes: step.codes, fresh: true })}
      />
    );
  if (step.kind === 'codes')
    return <BackupCodes lang={lang} codes={step.codes} fresh={step.fresh} requiredForAdmin={requiredForAdmin} />;

  return (
    <div className="space-y-4">
      <p className="text-sm font-medium" role="status">
        {enabled ? t('twoFactor.statusOn') : t('twoFactor.statusOff')}
      </p>
      {enabled && backupCodesLeft !== null && (
        <p className="text-sm text-gray-600">{t('twoFactor.backupCodesLeft', { count: backupCodesLeft })}</p>
      )}
      {enabled ? (
        <ManageForm
          hasPassword={hasPassword}
          requiredForAdmin={requiredForAdmin}
          onNewCodes={(codes) => setStep({ kind: 'codes', codes, fresh: false })}
          posted={posted}
        />
      ) : (
        <SetUpForm hasPassword={hasPassword} onStarted={(uri, codes) => setStep({ kind: 'scan', uri, codes })} posted={posted} />
      )}
    </div>
  );
}

/** Set-up with the password (or a fresh sign-in): the QR code is next, from the island or from the page. */
function SetUpForm({
  hasPassword,
  onStarted,
  posted,
}: {
  hasPassword: boolean;
  onStarted: (uri: string, codes: string[]) => void;
  posted: PostedForm | undefined;
}) {
  const { t } = useTranslation();
  const form = useForm(() => schemas().then((s) => s.ReauthSchema), { password: '' }, { idPrefix: 'two-factor-setup', posted });
  const submit = form.handleSubmit(async (data) => {
    const result = await enableTwoFactor(hasPassword ? data.password : undefined);
    if (!result.ok) return passwordFailure(result);
    onStarted(result.data.totpURI, result.data.backupCodes);
    return undefined;
  });
  return (
    <Form name={form.name} onSubmit={submit} className="space-y-4">
      <p className="text-sm text-gray-600">{t('twoFactor.intro')}</p>
      <ReauthField hasPassword={hasPassword} {...form.bind('password')} />
      <FormFailure message={form.failure} />
      <SubmitButton busy={form.busy} label={t('twoFactor.setUp')} busyLabel={t('twoFactor.working')} />
    </Form>
  );
}

function ManageForm({
  hasPassword,
  requiredForAdmin,
  onNewCodes,
  posted,
}: {
  hasPassword: boolean;
  requiredForAdmin: boolean;
  onNewCodes: (codes: string[]) => void;
  posted: PostedForm | undefined;
}) {
  const { t } = useTranslation();
  const form = useForm(() => schemas().then((s) => s.ReauthSchema), { password: '' }, { idPrefix: 'two-factor-manage', posted });
  const makeCodes = form.handleSubmit(async (data) => {
    const result = await newBackupCodes(hasPassword ? data.password : undefined);
    if (!result.ok) return passwordFailure(result);
    onNewCodes(result.data.backupCodes);
    return undefined;
  });
  const turnOff = form.handleSubmit(async (data) => {
    const result = await disableTwoFactor(hasPassword ? data.password : undefined);
    if (!result.ok) return passwordFailure(result);
    showToastOnNextPage('success', t('twoFactor.disabled'));
    location.reload();
    return 'navigating';
  });
  // One password, two actions: the button that submitted the form says which.
  const submit = (event: SubmitEvent<HTMLFormElement>) =>
    (event.nativeEvent.submitter as HTMLButtonElement | null)?.value === 'disable' ? turnOff(event) : makeCodes(event);
  return (
    <Form name={form.name} onSubmit={submit} className="space-y-4">
      <ReauthField hasPassword={hasPassword} {...form.bind('password')} />
      {requiredForAdmin && <p className="text-sm text-amber-900">{t('twoFactor.disableAdminWarning')}</p>}
      <FormFailure message={form.failure} />
      <div className="flex flex-wrap gap-3">
        <button
          type="submit"
          name="intent"
          value="codes"
          disabled={form.busy}
          className="rounded-lg border border-brand-600 px-4 py-2 font-semibold text-brand-700 hover:bg-brand-50 disabled:opacity-60"
        >
          {t('twoFactor.newCodes')}
        </button>
        <button
          type="submit"
          name="intent"
          value="disable"
          disabled={form.busy}
          className="rounded-lg bg-red-700 px-4 py-2 font-semibold text-white hover:bg-red-800 disabled:opacity-60"
        >
          {t('twoFactor.disable')}
        </button>
      </div>
    </Form>
  );
}
