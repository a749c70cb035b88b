import { useEffect, useState, type SubmitEvent } from 'react';
import type QRCode from 'qrcode';
import { I18nIsland, useTranslation } from '../islands/I18nIsland.tsx';
import { messageScopes, type IslandMessages } from '../../i18n/translate.ts';
import { ACCOUNT_ANSWERS } from '../../i18n/account-answers.ts';
import { PasswordField, TextField } from '../forms/fields.tsx';
import { FormFailure, SubmitButton, useForm } from '../forms/use-form.tsx';
import { disableTwoFactor, enableTwoFactor, newBackupCodes, verifyTotp } from '../../lib/auth-client.ts';
import { localizedPath, type Language } from '../../i18n/languages.ts';
import type { ApiFailure } from '../../lib/api-client.ts';
import { showToastOnNextPage } from '../../stores/toasts.ts';

interface Props {
  lang: Language;
  messages: IslandMessages;
  enabled: boolean;
  /** Re-authentication by password; an account without one needs a sign-in of the last minutes. */
  hasPassword: boolean;
  backupCodesLeft: number | null;
  /** An admin where two-factor is required (the admin area sends them here until it is on). */
  requiredForAdmin: boolean;
}

type Step =
  { kind: 'idle' } | { kind: 'scan'; uri: string; codes: string[] } | { kind: 'codes'; codes: string[]; fresh: boolean };

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

function TwoFactorSettings({ lang, enabled, hasPassword, backupCodesLeft, requiredForAdmin }: Props) {
  const { t } = useTranslation();
  const [step, setStep] = useState<Step>({ kind: 'idle' });

  if (step.kind === 'scan')
    return <Enrol lang={lang} uri={step.uri} onConfirmed={() => setStep({ kind: 'codes', codes: step.codes, fresh: true })} />;
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
        />
      ) : (
        <SetUpForm hasPassword={hasPassword} onStarted={(uri, codes) => setStep({ kind: 'scan', uri, codes })} />
      )}
    </div>
  );
}

function SetUpForm({ hasPassword, onStarted }: { hasPassword: boolean; onStarted: (uri: string, codes: string[]) => void }) {
  const { t } = useTranslation();
  const form = useForm(() => schemas().then((s) => s.ReauthSchema), { password: '' }, { idPrefix: 'two-factor-setup' });
  const submit = form.handleSubmit(async (data) => {
    const result = await enableTwoFactor(hasPassword ? data.password : undefined);
    if (!result.ok) return passwordFailure(result);
    onStarted(result.data.totpURI, result.data.backupCodes);
    return undefined;
  });
  return (
    <form onSubmit={submit} noValidate className="space-y-4">
      <p className="text-sm text-gray-600">{t('twoFactor.intro')}</p>
      {hasPassword ? (
        <PasswordField label={t('twoFactor.password')} autoComplete="current-password" {...form.bind('password')} />
      ) : (
        <p className="text-sm text-gray-600">{t('twoFactor.freshSignIn')}</p>
      )}
      <FormFailure message={form.failure} />
      <SubmitButton busy={form.busy} label={t('twoFactor.setUp')} busyLabel={t('twoFactor.working')} />
    </form>
  );
}

/** Scan the QR code (or type the key), then prove it with the first code. */
function Enrol({ lang, uri, onConfirmed }: { lang: Language; uri: string; onConfirmed: () => void }) {
  const { t } = useTranslation();
  const form = useForm(() => schemas().then((s) => s.TotpCodeSchema), { code: '' }, { idPrefix: 'two-factor-confirm' });
  const key = new URL(uri).searchParams.get('secret') ?? '';
  const submit = form.handleSubmit(async (data) => {
    const result = await verifyTotp(data.code);
    if (!result.ok) return { ...result, fields: { code: result.message } };
    onConfirmed();
    return undefined;
  });
  return (
    <div className="space-y-4">
      <h3 className="font-semibold">{t('twoFactor.scanTitle')}</h3>
      <p className="text-sm text-gray-600">{t('twoFactor.scanIntro')}</p>
      <QrCode text={uri} label={t('twoFactor.qrLabel')} />
      <div>
        <p className="text-sm font-semibold" id="two-factor-key-label">
          {t('twoFactor.manualKey')}
        </p>
        <p aria-labelledby="two-factor-key-label" className="mt-1 font-mono text-sm break-all" data-testid="two-factor-key">
          {key.replace(/(.{4})/g, '$1 ').trim()}
        </p>
      </div>
      <form onSubmit={submit} noValidate className="space-y-4">
        <TextField
          label={t('twoFactor.code')}
          hint={t('twoFactor.codeHint')}
          autoComplete="one-time-code"
          inputMode="numeric"
          {...form.bind('code')}
        />
        <FormFailure message={form.failure} />
        <SubmitButton busy={form.busy} label={t('twoFactor.confirm')} busyLabel={t('twoFactor.working')} />
      </form>
      <p className="text-sm">
        <a href={localizedPath(lang, '/dashboard/settings')} className="font-medium text-brand-700 underline">
          {t('twoFactor.cancelSetUp')}
        </a>
      </p>
    </div>
  );
}

/** Ten single-use codes, shown once: to download or print and keep away from the phone. */
function BackupCodes({
  lang,
  codes,
  fresh,
  requiredForAdmin,
}: {
  lang: Language;
  codes: string[];
  fresh: boolean;
  requiredForAdmin: boolean;
}) {
  const { t } = useTranslation();
  const download = () => {
    const text = `${t('twoFactor.codesFileTitle')}\n\n${codes.join('\n')}\n`;
    const link = document.createElement('a');
    link.href = URL.createObjectURL(new Blob([text], { type: 'text/plain;charset=utf-8' }));
    link.download = 'backup-codes.txt';
    link.click();
    URL.revokeObjectURL(link.href);
  };
  const done = () => {
    showToastOnNextPage('success', fresh ? t('twoFactor.enabled') : t('twoFactor.codesRenewed'));
    // An admin sent here by the admin area goes on there; everyone else sees Settings with it on.
    if (requiredForAdmin && fresh) location.assign(localizedPath(lang, '/admin'));
    else location.reload();
  };
  return (
    <div className="space-y-4">
      {fresh && (
        <p role="status" className="rounded-lg bg-emerald-50 p-3 text-sm font-medium text-emerald-900">
          {t('twoFactor.enabledNow')}
        </p>
      )}
      <h3 className="font-semibold">{t('twoFactor.codesTitle')}</h3>
      <p className="text-sm text-gray-600">{t('twoFactor.codesIntro')}</p>
      <ol aria-label={t('twoFactor.codesTitle')} className="grid grid-cols-2 gap-2 font-mono text-sm">
        {codes.map((code) => (
          <li key={code} className="rounded bg-gray-100 px-2 py-1">
            {code}
          </li>
        ))}
      </ol>
      <div className="flex flex-wrap gap-3">
        <button
          type="button"
          onClick={download}
          className="rounded-lg border border-gray-300 px-4 py-2 font-medium hover:bg-gray-50"
        >
          {t('twoFactor.downloadCodes')}
        </button>
        <button
          type="button"
          onClick={() => window.print()}
          className="rounded-lg border border-gray-300 px-4 py-2 font-medium hover:bg-gray-50"
        >
          {t('twoFactor.printCodes')}
        </button>
        <button
          type="button"
          onClick={done}
          className="rounded-lg bg-brand-600 px-4 py-2 font-semibold text-white hover:bg-brand-700"
        >
          {t('twoFactor.codesSaved')}
        </button>
      </div>
    </div>
  );
}

function ManageForm({
  hasPassword,
  requiredForAdmin,
  onNewCodes,
}: {
  hasPassword: boolean;
  requiredForAdmin: boolean;
  onNewCodes: (codes: string[]) => void;
}) {
  const { t } = useTranslation();
  const form = useForm(() => schemas().then((s) => s.ReauthSchema), { password: '' }, { idPrefix: 'two-factor-manage' });
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
    <form onSubmit={submit} noValidate className="space-y-4">
      {hasPassword ? (
        <PasswordField label={t('twoFactor.password')} autoComplete="current-password" {...form.bind('password')} />
      ) : (
        <p className="text-sm text-gray-600">{t('twoFactor.freshSignIn')}</p>
      )}
      {requiredForAdmin && <p className="text-sm text-amber-900">{t('twoFactor.disableAdminWarning')}</p>}
      <FormFailure message={form.failure} />
      <div className="flex flex-wrap gap-3">
        <button
          type="submit"
          value="codes"
          disabled={form.busy}
          className="rounded-lg border border-brand-600 px-4 py-2 font-semibold text-brand-700 hover:bg-brand-50 disabled:opacity-60"
        >
          {t('twoFactor.newCodes')}
        </button>
        <button
          type="submit"
          value="disable"
          disabled={form.busy}
          className="rounded-lg bg-red-700 px-4 py-2 font-semibold text-white hover:bg-red-800 disabled:opacity-60"
        >
          {t('twoFactor.disable')}
        </button>
      </div>
    </form>
  );
}

/** A wrong password is said at its field; the rest above the button. */
function passwordFailure(result: ApiFailure): ApiFailure {
  return result.message === 'settings.wrongCurrentPassword' ? { ...result, fields: { password: result.message } } : result;
}

type QrModules = ReturnType<typeof QRCode.create>['modules'];

/**
 * The QR code of the authenticator address, drawn as one SVG path (no inline script or style). The
 * encoder is loaded when a code is shown: the settings page does not download it up front.
 */
function QrCode({ text, label }: { text: string; label: string }) {
  const [modules, setModules] = useState<QrModules | null>(null);
  useEffect(() => {
    let shown = true;
    void import('qrcode').then(({ default: encoder }) => {
      if (shown) setModules(encoder.create(text, { errorCorrectionLevel: 'M' }).modules);
    });
    return () => {
      shown = false;
    };
  }, [text]);
  if (!modules) return <div aria-busy="true" className="h-[200px] w-[200px] rounded bg-gray-100" />;
  const quiet = 4;
  const size = modules.size + quiet * 2;
  let path = '';
  for (let row = 0; row < modules.size; row++)
    for (let column = 0; column < modules.size; column++)
      if (modules.get(row, column)) path += `M${column + quiet},${row + quiet}h1v1h-1z`;
  return (
    <svg
      role="img"
      aria-label={label}
      viewBox={`0 0 ${size} ${size}`}
      width="200"
      height="200"
      className="rounded bg-white"
      shapeRendering="crispEdges"
    >
      <rect width={size} height={size} fill="#fff" />
      <path d={path} fill="#000" />
    </svg>
  );
}
